import { describe, expect, it } from 'vitest';
import { Instrumentation } from './events.ts';
import { PollerMetrics } from './metrics.ts';
import { ProgressTracker } from './progress.ts';

const trigger = { functionName: 'orders', topic: 'orders', consumerGroupId: 'g', timeoutMs: 10_000, maxPollIntervalMs: 120_000 };
const base = { functionName: 'orders', topic: 'orders', partition: 1 };
const chunk = { ...base, count: 10, firstOffset: 0, lastOffset: 9, attempt: 1, bytes: 100, fetchedAt: 0 };

function setup() {
  let now = 1_000_000;
  const events = new Instrumentation();
  const progress = new ProgressTracker([trigger], events, () => now);
  events.emit('group.join', { groupId: 'g', memberId: 'm', isLeader: true, assignment: { orders: [1, 2] }, durationMs: 5 });
  const state = (partition = 1) => progress.snapshot().find((p) => p.partition === partition)!;
  return { events, progress, state, advance: (ms: number) => (now += ms) };
}

describe('ProgressTracker', () => {
  it('a partition with nothing to do is caught up however long it stays quiet', () => {
    const { events, state, advance } = setup();
    events.emit('poller.batch_received', { ...base, count: 10, firstOffset: 0, lastOffset: 9, lag: 0, highWatermark: 10 });
    events.emit('poller.commit', { ...base, groupId: 'g', offset: 10, durationMs: 3 });
    advance(3_600_000);
    expect(state()).toMatchObject({ state: 'caught-up', lag: 0, secondsWithoutProgress: 0 });
  });

  it("a transactional topic's commit marker keeps lag at 1 but leaves nothing to do: caught up, never stuck", () => {
    const { events, state, advance } = setup();
    events.emit('poller.batch_received', { ...base, count: 10, firstOffset: 0, lastOffset: 9, lag: 1, highWatermark: 11 });
    events.emit('poller.commit', { ...base, groupId: 'g', offset: 10, durationMs: 3 });
    advance(3_600_000);
    expect(state()).toMatchObject({ state: 'caught-up', lag: 1 });
  });

  it('records that wait with no chunk, commit or retry for the poll interval are stuck (a refetch is not progress)', () => {
    const { events, progress, state, advance } = setup();
    events.emit('poller.batch_received', { ...base, count: 3, firstOffset: 0, lastOffset: 2, lag: 0, highWatermark: 3 });
    advance(119_000);
    events.emit('poller.budget_exhausted', { ...base, nextOffset: 0, elapsedMs: 1, timeoutMs: 60_000, maxPollIntervalMs: 120_000 });
    events.emit('poller.batch_received', { ...base, count: 3, firstOffset: 0, lastOffset: 2, lag: 0, highWatermark: 3 });
    expect(state().state).toBe('progressing');
    advance(2_000);
    expect(state()).toMatchObject({ state: 'stuck', lag: 3, secondsWithoutProgress: 121, reason: '3 records fetched and waiting, and no chunk, commit or retry for 121 s (limit 120 s)' });
    expect(progress.stuck().map((p) => p.partition)).toEqual([1]);
  });

  it('a running chunk is progress until its timeout is long past', () => {
    const { events, state, advance } = setup();
    events.emit('poller.batch_received', { ...base, count: 10, firstOffset: 0, lastOffset: 9, lag: 0, highWatermark: 10 });
    events.emit('poller.chunk_start', chunk);
    advance(129_000);
    expect(state().state).toBe('progressing');
    advance(2_000);
    expect(state()).toMatchObject({ state: 'stuck', reason: 'a chunk started 131 s ago has not ended (function timeout 10 s)' });
    events.emit('poller.chunk_end', { ...chunk, ok: true, durationMs: 131_000 });
    expect(state().state).toBe('progressing');
  });

  it('a partition the failure policy holds is held, with what holds it, as long as each attempt is reported', () => {
    const { events, state, advance } = setup();
    events.emit('poller.batch_received', { ...base, count: 10, firstOffset: 0, lastOffset: 9, lag: 0, highWatermark: 10 });
    for (let i = 0; i < 10; i++) {
      events.emit('poller.chunk_start', chunk);
      events.emit('poller.chunk_end', { ...chunk, ok: false, durationMs: 5 });
      events.emit('poller.retry_scheduled', { ...base, offset: 0, attempt: i + 1, delayMs: 30_000 });
      advance(30_000);
      expect(state()).toMatchObject({ state: 'held', held: 'retrying' });
    }
    events.emit('poller.destination_failed', { ...base, offsets: [0], reason: 'RetryAttemptsExhausted', destination: 'kafka://dlq', error: 'down' });
    expect(state()).toMatchObject({ state: 'held', held: 'destination', secondsWithoutProgress: 300 });
    advance(121_000); // the attempts stopped being reported
    expect(state().state).toBe('stuck');
    events.emit('poller.commit', { ...base, groupId: 'g', offset: 10, durationMs: 3 });
    expect(state()).toMatchObject({ state: 'caught-up' });
  });

  it('forgets partitions assigned away and starts the clock for new ones at the join', () => {
    const { events, progress, advance } = setup();
    events.emit('poller.batch_received', { ...base, count: 3, firstOffset: 0, lastOffset: 2, lag: 0, highWatermark: 3 });
    advance(200_000);
    events.emit('group.rebalanced', { groupId: 'g', memberId: 'm', durationMs: 5, assignment: { orders: [2, 3] } });
    expect(progress.snapshot().map((p) => [p.partition, p.state])).toEqual([[2, 'caught-up'], [3, 'caught-up']]);
  });

  it('is served in /metrics as seconds without progress and a state per partition', async () => {
    const { events, progress, advance } = setup();
    const metrics = new PollerMetrics([trigger], events, progress);
    events.emit('poller.batch_received', { ...base, count: 3, firstOffset: 0, lastOffset: 2, lag: 0, highWatermark: 3 });
    events.emit('poller.retry_scheduled', { ...base, offset: 0, attempt: 1, delayMs: 500, notInvoked: true });
    advance(7_000);
    const text = await metrics.text();
    expect(text).toContain('sluice_partition_seconds_without_progress{function="orders",topic="orders",partition="1",group="g"} 7');
    expect(text).toContain('sluice_partition_state{function="orders",topic="orders",partition="1",group="g",state="held",held="not-invoked"} 1');
    expect(text).toContain('sluice_partition_state{function="orders",topic="orders",partition="2",group="g",state="caught-up",held=""} 1');
  });
});
