/**
 * The Kafka destination sends in requests its topic accepts. Before, a failed set went as one
 * request: 100 records of 20 KB over the default max.message.bytes (1 MB) were refused with
 * MESSAGE_TOO_LARGE on every try, taken for "destination down", and the partition retried
 * forever. A record that can never fit used to stop its partition with one clear, repeated error
 * until the topic's limit was raised (issue 40): its copy now keeps only the failure headers, which
 * say why and where the record is, and the partition goes on.
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

  it('a 2 MB record that cannot fit: its copy keeps only the failure headers, saying why and where the record is; the partition goes on', async () => {
    const { topic, failed, onFailure } = await setup('dest-large', { 'max.message.bytes': String(3 * 1024 * 1024) });
    await produce(topic, [{ key: 'big', value: Buffer.alloc(2 * 1024 * 1024, 7) }, { key: 'next', value: Buffer.from('{"n":1}') }]);
    const h = await startRecorder({ topic, batchSize: 1, failure: policy({ maximumRetryAttempts: 0, onFailure }), env: { POISON_OFFSETS: '0' } });
    harnesses.push(h);
    const refusals: Array<SluiceEvents['poller.destination_failed']> = [];
    h.events.on('poller.destination_failed', (e) => refusals.push(e));
    await waitFor('committed past both', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 2, 60_000);
    const [dead] = await readTopic(failed, 1);
    console.log(`[dest-large] copy: ${dead!.headers[FAILURE_HEADERS.reduced]}`);
    expect(refusals).toEqual([]);
    expect(dead!.key).toBeNull();
    expect(dead!.value).toBeNull();
    expect(dead!.headers[FAILURE_HEADERS.reason]!.toString()).toBe('RetryAttemptsExhausted');
    expect(dead!.headers[FAILURE_HEADERS.offset]!.toString()).toBe('0');
    expect(dead!.headers[FAILURE_HEADERS.reduced]!.toString()).toMatch(new RegExp(`^the copy with its key, value and headers is \\d+ bytes, over max\\.message\\.bytes 1048588 of "${failed}": read the record from ${topic}-0@0$`));
    // The record after it was invoked, not held behind it.
    expect(h.seen().flatMap((s) => Object.values(s.event.records).flat()).map((r) => r.offset)).toContain(1);
  });
});
