/**
 * Proves the kafkajs client and the pinned broker agree on the group protocol: two pollers in
 * one group split the partitions after a forced rebalance, every record is processed, and the
 * committed offsets read back from the broker end at the log end.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('consumer group', () => {
  const topic = uniqueName('group');
  const group = uniqueName('group-g');
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await deleteTopic(topic);
  });

  it('splits partitions between two members after a rebalance and processes every record', async () => {
    const total = 1_200;
    await createTopic(topic, 4);
    await produce(topic, Array.from({ length: total }, (_, i) => ({ value: `v${i}`, partition: i % 4 })));

    const a = await startRecorder({ topic, consumerGroupId: group, batchSize: 20, env: { SLEEP_MS: '40' } });
    harnesses.push(a);
    await waitFor('first chunks', () => a.completed().length >= 3, 60_000);

    const b = await startRecorder({ topic, consumerGroupId: group, batchSize: 20, recordFile: a.recordFile, env: { SLEEP_MS: '40' } });
    harnesses.push(b);

    await waitFor('all committed', async () => (await offsets(group, topic)).every((p) => p.committed === p.logEnd), 120_000);
    const lastA = a.joins.at(-1)?.assignment[topic] ?? [];
    const lastB = b.joins.at(-1)?.assignment[topic] ?? [];
    console.log(`[group] after rebalance: member A ${JSON.stringify(lastA)}, member B ${JSON.stringify(lastB)}`);
    expect(lastA.length).toBeGreaterThan(0);
    expect(lastB.length).toBeGreaterThan(0);
    expect([...lastA, ...lastB].sort()).toEqual([0, 1, 2, 3]);

    const delivered = a.seen().flatMap(recordsOf);
    const distinct = new Set(delivered.map((r) => `${r.partition}:${r.offset}`));
    console.log(`[group] ${delivered.length} deliveries of ${total} records (${delivered.length - distinct.size} invoked twice)`);
    expect(distinct.size).toBe(total);
  });
});
