import { describe, expect, it, vi } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import { Instrumentation, type SluiceEvents } from '../observe/events.ts';
import { HealthTracker } from '../observe/health.ts';
import { ProgressTracker } from '../observe/progress.ts';
import { ConsoleState } from './console-state.ts';

const spec = {
  functionName: 'orders', topic: 'orders', consumerGroupId: 'g', path: 'functions.orders.events[0].sluice', timeoutMs: 10_000, maxPollIntervalMs: 120_000,
  batchSize: 100, parallelizationFactor: 1, engine: 'kafkajs', failure: { onFailure: { kind: 'kafka', uri: 'kafka://dlq', topic: 'dlq' } },
} as unknown as TriggerSpec;

function setup(trigger: TriggerSpec = spec) {
  let now = 1_000_000;
  const clock = () => now;
  const events = new Instrumentation();
  const health = new HealthTracker([trigger], events, clock);
  const progress = new ProgressTracker([trigger], events, clock);
  const state = new ConsoleState({ service: 's', stage: 'dev', mode: 'read-write', historySize: 200, unlisted: () => ({}), eventsPerSecond: 10, listedPerSecond: 50, triggers: [trigger], events, health, progress, now: clock });
  // As ChunkInvoker tells them: the event, then the console's watcher.
  const chunkStart = (c: SluiceEvents['poller.chunk_start']): void => (events.emit('poller.chunk_start', c), state.chunkStarted(c));
  const chunkEnd = (c: SluiceEvents['poller.chunk_end']): void => (events.emit('poller.chunk_end', c), state.chunkEnded(c));
  return { events, state, chunkStart, chunkEnd, advance: (ms: number) => (now += ms), close: () => state.close() };
}

const chunk = { functionName: 'orders', topic: 'orders', partition: 1, count: 2, firstOffset: 5, lastOffset: 6, attempt: 1, bytes: 40, fetchedAt: 999_000 };

describe('ConsoleState', () => {
  it('shows a chunk in flight with the timeout and the poll deadline it was cut for, and drops it when it ends', () => {
    const { events, state, chunkStart, chunkEnd, advance, close } = setup();
    events.emit('group.join', { groupId: 'g', memberId: 'm-1', isLeader: true, assignment: { orders: [0, 1] }, durationMs: 5 });
    events.emit('poller.batch_received', { functionName: 'orders', topic: 'orders', partition: 1, count: 2, firstOffset: 5, lastOffset: 6, lag: 2, highWatermark: 7 });
    chunkStart(chunk);
    const t = state.overview().triggers[0]!;
    expect(t).toMatchObject({ status: 'running', memberId: 'm-1', destination: 'kafka://dlq' });
    expect(t.partitions.map((p) => p.partition)).toEqual([0, 1]);
    expect(t.partitions[1]!.lagHistory).toEqual([2]);
    expect(t.partitions[1]!.inFlight).toEqual([{ firstOffset: 5, lastOffset: 6, count: 2, bytes: 40, attempt: 1, startedAt: 1_000_000, timeoutAt: 1_010_000, fetchedAt: 999_000, pollDeadlineAt: 1_119_000 }]);
    expect(t.partitions[1]).toMatchObject({ logEnd: 7, lag: 2, state: 'progressing' });
    advance(30);
    chunkEnd({ ...chunk, ok: true, durationMs: 30 });
    events.emit('poller.commit', { functionName: 'orders', groupId: 'g', topic: 'orders', partition: 1, offset: 7, durationMs: 1 });
    const after = state.overview().triggers[0]!;
    expect(after.partitions[1]).toMatchObject({ inFlight: [], committed: 7, lag: 0, state: 'caught-up' });
    expect(after.totals).toEqual({ invocations: 1, records: 2, failed: 0 });
    expect(after.throughput.at(-1)).toMatchObject({ records: 2, invocations: 1, failed: 0 });
    close();
  });

  it('shows a queue trigger\'s share-group backlog on every partition, with what this poller acquired and how it acknowledged them', () => {
    const { events, state, advance, close } = setup({ ...spec, consumptionMode: 'queue' } as TriggerSpec);
    const q = { functionName: 'orders', topic: 'orders' };
    events.emit('group.join', { groupId: 'g', memberId: 'm-1', isLeader: false, assignment: { orders: [0, 1, 2] }, durationMs: 5 });
    events.emit('queue.lag', { ...q, groupId: 'g', partitions: [{ partition: 0, lag: 9 }, { partition: 1, lag: 4 }, { partition: 2, lag: 0 }] });
    events.emit('queue.acquired', { ...q, partition: 1, count: 5, redelivered: 2, leader: 1, ranges: [{ from: 10, until: 14 }] });
    events.emit('queue.acknowledged', { ...q, partition: 1, type: 'accept', count: 3 });
    events.emit('queue.acknowledged', { ...q, partition: 1, type: 'release', count: 1 });
    events.emit('queue.acknowledged', { ...q, partition: 1, type: 'reject', count: 1 });
    advance(5_000);
    events.emit('queue.lag', { ...q, groupId: 'g', partitions: [{ partition: 0, lag: 7 }, { partition: 1, lag: 0 }, { partition: 2, lag: 0 }] });
    const t = state.overview().triggers[0]!;
    expect(t.consumptionMode).toBe('queue');
    expect(t.partitions.map((p) => [p.partition, p.lag, p.state])).toEqual([[0, 7, 'progressing'], [1, 0, 'caught-up'], [2, 0, 'caught-up']]);
    expect(t.partitions[1]!.queue).toEqual({ acquired: 5, redelivered: 2, accepted: 3, released: 1, rejected: 1 });
    expect(t.partitions[0]!.queue).toEqual({ acquired: 0, redelivered: 0, accepted: 0, released: 0, rejected: 0 });
    expect(t.partitions[0]!.committed).toBeUndefined();
    close();
  });

  it('cuts the throughput into 5-second buckets from the totals, an idle one counting 0', () => {
    vi.useFakeTimers();
    try {
      const { state, chunkStart, chunkEnd, advance, close } = setup(); // the clock at 1,000,000: a bucket's start
      const run = (first: number, count: number, ok = true) => {
        const c = { ...chunk, firstOffset: first, lastOffset: first + count - 1, count };
        chunkStart(c);
        chunkEnd({ ...c, ok, durationMs: 1 });
      };
      run(0, 2);
      run(2, 3, false);
      advance(5_000);
      vi.advanceTimersByTime(5_000); // the bucket cut
      run(5, 4);
      advance(5_000);
      vi.advanceTimersByTime(5_000);
      advance(5_000);
      vi.advanceTimersByTime(5_000); // a bucket with nothing in it
      expect(state.overview().triggers[0]!.throughput).toEqual([
        { t: 1_000_000, records: 5, invocations: 2, failed: 1 },
        { t: 1_005_000, records: 4, invocations: 1, failed: 0 },
        { t: 1_010_000, records: 0, invocations: 0, failed: 0 },
        { t: 1_015_000, records: 0, invocations: 0, failed: 0 }, // the one being filled
      ]);
      expect(state.overview().triggers[0]!.totals).toEqual({ invocations: 3, records: 9, failed: 1 });
      close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('fills what this process has not seen (an idle partition since its start) from the offsets read from the cluster', () => {
    const { events, state, chunkStart, chunkEnd, close } = setup();
    events.emit('group.join', { groupId: 'g', memberId: 'm-1', isLeader: true, assignment: { orders: [0, 1] }, durationMs: 5 });
    state.noteOffsets('orders', 'orders', [{ partition: 0, committed: 4, logEnd: 6 }, { partition: 1, committed: -1, logEnd: 0 }]);
    const [p0, p1] = state.overview().triggers[0]!.partitions;
    expect(p0).toMatchObject({ committed: 4, logEnd: 6, lag: 2 });
    expect(p1).toMatchObject({ logEnd: 0, lag: 0 });
    expect(p1!.committed).toBeUndefined();
    close();
  });

  it('counts a chunk whose answer named failed records, or could not be read, as failed', () => {
    const { events, state, chunkStart, chunkEnd, close } = setup();
    chunkEnd({ ...chunk, ok: true, durationMs: 1, reportedFailedFrom: 6 });
    chunkEnd({ ...chunk, ok: true, durationMs: 1, malformedResponse: 'malformed partial batch response: x' });
    expect(state.overview().triggers[0]!.totals).toEqual({ invocations: 2, records: 4, failed: 2 });
    close();
  });

  it('says a partition held by a retry makes the trigger held, and why', () => {
    const { events, state, chunkStart, chunkEnd, close } = setup();
    events.emit('group.join', { groupId: 'g', memberId: 'm-1', isLeader: true, assignment: { orders: [1] }, durationMs: 5 });
    events.emit('poller.batch_received', { functionName: 'orders', topic: 'orders', partition: 1, count: 2, firstOffset: 5, lastOffset: 6, lag: 2, highWatermark: 7 });
    chunkStart(chunk);
    chunkEnd({ ...chunk, ok: false, durationMs: 3, error: 'boom' });
    events.emit('poller.retry_scheduled', { functionName: 'orders', topic: 'orders', partition: 1, offset: 5, attempt: 2, delayMs: 1000 });
    const t = state.overview().triggers[0]!;
    expect(t.status).toBe('held');
    expect(t.reason).toMatch(/partition 1 waits: a failed record is retried/);
    expect(t.totals.failed).toBe(1);
    close();
  });

  it('keeps the group timeline newest first, and the sends to the destination', () => {
    const { events, state, chunkStart, chunkEnd, close } = setup();
    events.emit('group.join', { groupId: 'g', memberId: 'm-1', isLeader: true, assignment: { orders: [0] }, durationMs: 5 });
    events.emit('group.rebalance_detected', { groupId: 'g', memberId: 'm-1', where: 'heartbeat', reason: 'REBALANCE_IN_PROGRESS' });
    events.emit('trigger.consumer_stopped', { functionName: 'orders', groupId: 'g', topic: 'orders', error: 'crash', consecutive: 1, restartInMs: 500 });
    events.emit('poller.sent_to_destination', { functionName: 'orders', topic: 'orders', partition: 0, offsets: [3], reason: 'RetryAttemptsExhausted', destination: 'kafka://dlq', attempts: 1 });
    const o = state.overview();
    expect(o.timeline.map((e) => e.kind)).toEqual(['stopped', 'rebalancing', 'joined']);
    expect(o.triggers[0]!.status).toBe('restarting');
    expect(o.topics).toEqual(['orders', 'dlq']);
    expect(state.sentBy('orders', 'orders')).toMatchObject([{ partition: 0, offsets: [3], reason: 'RetryAttemptsExhausted', attempts: 1 }]);
    close();
  });
});
