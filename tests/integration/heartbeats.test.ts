/**
 * Long handlers never get the member kicked out: with a 10 s session, a handler that sleeps
 * 30 s, and one that blocks its own thread for 30 s, run to the end with no rebalance, are
 * invoked once, and are committed. Heartbeats come from the poller's thread meanwhile.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe.concurrent('heartbeats while a handler runs', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await Promise.all(topics.map(deleteTopic));
  });

  it.each([
    ['sleeps', { SLEEP_MS: '30000' }],
    ['busy-loops its thread', { BUSY_MS: '30000' }],
  ])('a handler that %s for 30 s with a 10 s session', async (_what, env) => {
    const topic = uniqueName('hb');
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, Array.from({ length: 5 }, (_, i) => ({ value: `v${i}` })));

    const h = await startRecorder({ topic, timeoutMs: 40_000, sessionTimeoutMs: 10_000, heartbeatIntervalMs: 2_000, env });
    harnesses.push(h);
    let heartbeats = 0;
    let failedHeartbeats = 0;
    const rebalances: string[] = [];
    h.events.on('poller.heartbeat', (e) => (e.ok ? heartbeats++ : failedHeartbeats++));
    h.events.on('group.rebalance_detected', (e) => rebalances.push(e.reason));
    const ends: Array<{ ok: boolean; durationMs: number }> = [];
    h.events.on('poller.chunk_end', (e) => ends.push(e));

    await waitFor('committed', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 5, 90_000);
    console.log(`[heartbeats ${_what}] chunk took ${ends[0]?.durationMs} ms; ${heartbeats} heartbeats sent meanwhile, ${failedHeartbeats} failed; joins ${h.joins.length}`);
    expect(ends).toHaveLength(1);
    expect(ends[0]).toMatchObject({ ok: true });
    // The handler ran its 30 s to the end (three sessions long), not cut short.
    expect(h.completed()).toEqual([h.seen()[0]!.requestId]);
    expect(heartbeats).toBeGreaterThanOrEqual(10);
    expect(failedHeartbeats).toBe(0);
    expect(rebalances).toEqual([]);
    expect(h.joins).toHaveLength(1);
    expect(h.seen()).toHaveLength(1);
    expect(recordsOf(h.seen()[0]!).map((r) => r.offset)).toEqual([0, 1, 2, 3, 4]);
  });
});
