/**
 * The Kafka destination sends in requests its topic accepts. Before, a failed set went as one
 * request: 100 records of 20 KB over the default max.message.bytes (1 MB) were refused with
 * MESSAGE_TOO_LARGE on every try, taken for "destination down", and the partition retried
 * forever. A record that can never fit stops its partition with one clear, repeated error,
 * and goes through once the topic's limit is raised.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { FAILURE_HEADERS } from '../../framework/failure/failed-record.ts';
import type { SluiceEvents } from '../../framework/observe/events.ts';
import { failurePolicy as policy, startRecorder, type Harness } from '../support/harness.ts';
import { deleteTopic, offsets, produce, readTopic, uniqueName, waitFor, withAdmin } from '../support/kafka.ts';

/** Kafka's default max.message.bytes. */
const KAFKA_DEFAULT_MAX_MESSAGE_BYTES = 1_048_588;

describe('kafka:// destination and max.message.bytes', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    for (const t of topics) await deleteTopic(t);
  });
  const setup = async (prefix: string, sourceConfig?: Record<string, string>) => {
    const topic = uniqueName(prefix);
    const failed = `${topic}-failed`;
    topics.push(topic, failed);
    // The destination keeps Kafka's default limit (the local broker's own is 16 MB, for the tests' 7 MB records).
    await withAdmin((a) => a.ensureTopics([{ topic, partitions: 1, ...(sourceConfig ? { config: sourceConfig } : {}) }, { topic: failed, partitions: 1, config: { 'max.message.bytes': String(KAFKA_DEFAULT_MAX_MESSAGE_BYTES) } }]));
    return { topic, failed, onFailure: { kind: 'kafka' as const, uri: `kafka://${failed}`, topic: failed } };
  };

  it('100 records of 20 KB failing together: all 100 in the destination (default 1 MB limit), committed', async () => {
    const { topic, failed, onFailure } = await setup('dest-split');
    const value = (i: number) => Buffer.alloc(20_000, i);
    for (let i = 0; i < 100; i += 25) await produce(topic, Array.from({ length: 25 }, (_, j) => ({ key: `k${i + j}`, value: value(i + j) })));
    const h = await startRecorder({ topic, batchSize: 100, failure: policy({ maximumRetryAttempts: 0, onFailure }), env: { POISON_OFFSETS: '0' } });
    harnesses.push(h);
    await waitFor('committed 100', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 100, 60_000);
    const dead = await readTopic(failed, 100);
    console.log(`[dest-split] ${dead.length} records in ${failed}, ${dead.reduce((n, d) => n + d.value!.length, 0)} value bytes`);
    expect(dead).toHaveLength(100);
    expect(dead.map((d) => d.key!.toString())).toEqual(Array.from({ length: 100 }, (_, i) => `k${i}`));
    expect(dead.every((d, i) => d.value!.equals(value(i)))).toBe(true);
    expect((await withAdmin((a) => a.offsets('nobody', failed)))[0]!.logEnd).toBe(100);
  });

  it('a 2 MB record stops its partition with a clear, repeated error; raising the limit lets it through', async () => {
    const { topic, failed, onFailure } = await setup('dest-large', { 'max.message.bytes': String(3 * 1024 * 1024) });
    await produce(topic, [{ key: 'big', value: Buffer.alloc(2 * 1024 * 1024, 7) }]);
    const h = await startRecorder({ topic, batchSize: 1, failure: policy({ maximumRetryAttempts: 0, onFailure }), env: { POISON_OFFSETS: '0' } });
    harnesses.push(h);
    const refusals: Array<SluiceEvents['poller.destination_failed']> = [];
    h.events.on('poller.destination_failed', (e) => refusals.push(e));
    await waitFor('the send refused twice', () => refusals.length >= 2, 60_000);
    expect(refusals[0]!.error).toMatch(new RegExp(`^${topic}-0@0 is \\d+ bytes with its failure headers, over max\\.message\\.bytes 1048588 of the destination topic "${failed}"\\. Raise max\\.message\\.bytes on "${failed}" to at least \\d+`));
    expect(new Set(refusals.map((r) => r.error)).size).toBe(1);
    expect((await offsets(h.trigger.consumerGroupId, topic))[0]!.committed).toBe(-1);

    await withAdmin((a) => a.setTopicConfig(failed, 'max.message.bytes', String(3 * 1024 * 1024)));
    const raised = Date.now();
    await waitFor('committed past it', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 1, 60_000);
    const [dead] = await readTopic(failed, 1);
    console.log(`[dest-large] refused ${refusals.length} times with: ${refusals[0]!.error.slice(0, 120)}…; through ${Date.now() - raised} ms after the limit was raised`);
    expect(dead!.value!.length).toBe(2 * 1024 * 1024);
    expect(dead!.headers[FAILURE_HEADERS.reason]!.toString()).toBe('RetryAttemptsExhausted');
  });
});
