/**
 * A second member joins while the first is inside 20 s invocations: the first stops starting
 * chunks, finishes and commits what is in flight, and rejoins; the rebalance completes within
 * the function timeout plus a few seconds; the partitions end up split; every record is
 * processed; chunks that finished before the rebalance are not invoked again.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { assigned, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('rebalance during long invocations', () => {
  const topic = uniqueName('rebalance');
  const group = uniqueName('rebalance-g');
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await deleteTopic(topic);
  });

  it('waits for the chunks in flight, splits the partitions in one rebalance, and redoes nothing that finished', async () => {
    const timeoutMs = 30_000;
    await createTopic(topic, 2);
    await produce(topic, Array.from({ length: 20 }, (_, i) => ({ value: `v${i}`, partition: i % 2 })));

    // Only the first chunks (started in the first 3 s) take 20 s.
    const a = await startRecorder({ topic, consumerGroupId: group, batchSize: 5, timeoutMs, concurrency: 2, env: { SLEEP_MS: '20000', SLEEP_BEFORE_EPOCH_MS: String(Date.now() + 3_000) } });
    harnesses.push(a);
    const detected: number[] = [];
    const rejoined: number[] = [];
    a.events.on('group.rebalance_detected', () => detected.push(Date.now()));
    a.events.on('group.rebalanced', (e) => rejoined.push(e.durationMs));
    await waitFor('both partitions inside a long invocation', () => a.seen().length >= 2, 30_000);

    const joinRequested = Date.now();
    const b = await startRecorder({ topic, consumerGroupId: group, batchSize: 5, timeoutMs, recordFile: a.recordFile });
    harnesses.push(b);
    const rebalanceMs = b.joins[0]!.at - joinRequested;

    await waitFor('all committed', async () => (await offsets(group, topic)).every((p) => p.committed === p.logEnd), 60_000);
    const delivered = a.seen().flatMap(recordsOf);
    const distinct = new Set(delivered.map((r) => `${r.partition}:${r.offset}`));
    const twice = delivered.length - distinct.size;
    console.log(
      `[rebalance] second member joined ${rebalanceMs} ms after asking (function timeout ${timeoutMs} ms); ` +
        `first member saw the rebalance ${detected[0]! - joinRequested} ms after, rejoined after ${rejoined[0]} ms; ` +
        `assignments A ${JSON.stringify(a.joins.at(-1)!.assignment[topic])} B ${JSON.stringify(b.joins.at(-1)!.assignment[topic])}; ${twice} records invoked twice`,
    );
    expect(detected.length).toBeGreaterThan(0);
    // A finished its chunks and handed partitions over inside the rebalance: it only gave partitions up
    // and B only gained. Had A overrun the rebalance and been expelled, B would first have had them all
    // and then given some back to A. (On librdkafka each step of an incremental rebalance is announced.)
    expect(assigned(a, topic)).toEqual([...assigned(a, topic)].sort((x, y) => y - x));
    expect(assigned(b, topic)).toEqual([...assigned(b, topic)].sort((x, y) => x - y));
    expect(a.joins.at(-1)!.assignment[topic]).toHaveLength(1);
    expect(b.joins.at(-1)!.assignment[topic]).toHaveLength(1);
    expect(distinct.size).toBe(20);
    expect(twice).toBe(0);
  });
});
