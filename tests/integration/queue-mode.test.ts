/**
 * consumptionMode: queue through the poller (framework/queue/) against the broker: each record is
 * invoked and accepted once; one that always fails is delivered exactly maximumRetryAttempts + 1
 * times, reaches the on-failure destination with its failure headers, and is rejected (never
 * delivered again, shown by a record produced after it arriving while it does not).
 */
import { afterAll, expect, it } from 'vitest';
import { Instrumentation } from '../../framework/observe/events.ts';
import { failurePolicy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { kafkajsShareTransport } from '../../framework/kafka/kafkajs/share-transport.ts';
import { alterGroupConfig } from '../../framework/kafka/share/group-messages.ts';
import { createTopic, deleteTopic, kafka, produce, readTopic, uniqueName, waitFor } from '../support/kafka.ts';
import { scrape } from '../support/prometheus.ts';

const topics: string[] = [];
const harnesses: Harness[] = [];
afterAll(async () => {
  await Promise.all(harnesses.map((h) => h.stop()));
  await Promise.all(topics.map(deleteTopic));
});

async function queueTopic(partitions: number): Promise<{ topic: string; failed: string; onFailure: { kind: 'kafka'; uri: string; topic: string } }> {
  const topic = uniqueName('queue');
  const failed = uniqueName('queue-failed');
  topics.push(topic, failed);
  await createTopic(topic, partitions);
  await createTopic(failed, 1);
  return { topic, failed, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } };
}

it('invokes every record once and accepts it: none comes back', async () => {
  const { topic, onFailure } = await queueTopic(3);
  await produce(topic, Array.from({ length: 60 }, (_, i) => ({ value: `v${i}`, partition: i % 3 })));
  const h = await startRecorder({ topic, consumptionMode: 'queue', batchSize: 10, failure: failurePolicy({ onFailure }) });
  harnesses.push(h);
  await waitFor('60 records invoked', () => h.seen().flatMap(recordsOf).length >= 60);
  await produce(topic, [{ value: 'after', partition: 0 }]);
  await waitFor('the record produced after', () => h.seen().flatMap(recordsOf).some((r) => Buffer.from(r.value, 'base64').toString() === 'after'));
  const seen = h.seen().flatMap(recordsOf).map((r) => `${r.partition}@${r.offset}`);
  expect(seen).toHaveLength(61);
  expect(new Set(seen).size).toBe(61);
  // The event says how many times the share group handed each record out: once.
  expect(new Set(h.seen().flatMap(recordsOf).map((r) => (r as { deliveryCount?: number }).deliveryCount))).toEqual(new Set([1]));
});

it('delivers a record that always fails maximumRetryAttempts + 1 times, sends it to the destination, then never again', async () => {
  const { topic, failed, onFailure } = await queueTopic(1);
  await produce(topic, Array.from({ length: 6 }, (_, i) => ({ value: `v${i}`, partition: 0 })));
  const events = new Instrumentation();
  const acks: Record<string, number[]> = { accept: [], release: [], reject: [] };
  events.on('queue.acknowledged', (e) => void acks[e.type]!.push(...Array(e.count).fill(e.partition)));
  const h = await startRecorder({ topic, consumptionMode: 'queue', batchSize: 1, failure: failurePolicy({ maximumRetryAttempts: 2, onFailure }), env: { POISON_OFFSETS: '3' }, events });
  harnesses.push(h);
  const [sent] = await readTopic(failed, 1, 60_000);
  expect(sent!.value!.toString()).toBe('v3');
  expect(sent!.headers['sluice-failure-reason']?.toString()).toBe('RetryAttemptsExhausted');
  expect(sent!.headers['sluice-failure-attempts']?.toString()).toBe('3');
  await produce(topic, [{ value: 'after', partition: 0 }]);
  await waitFor('the record produced after', () => h.seen().flatMap(recordsOf).some((r) => Buffer.from(r.value, 'base64').toString() === 'after'));
  const deliveriesOf3 = h.seen().filter((s) => recordsOf(s).some((r) => r.offset === 3));
  expect(deliveriesOf3).toHaveLength(3);
  // The handler saw each delivery's count, as the share group counted it.
  expect(deliveriesOf3.map((s) => (recordsOf(s).find((r) => r.offset === 3) as { deliveryCount?: number }).deliveryCount)).toEqual([1, 2, 3]);
  const others = h.seen().flatMap(recordsOf).filter((r) => r.offset !== 3).map((r) => r.offset);
  expect(others.sort((a, b) => a - b)).toEqual([0, 1, 2, 4, 5, 6]);
  // What /metrics counts (sluice_queue_acknowledgements_total): every other record accepted once, the poison one released twice, then rejected.
  await waitFor('the acknowledgement of the record produced after', () => acks.accept!.length >= 6);
  expect({ accept: acks.accept!.length, release: acks.release!.length, reject: acks.reject!.length }).toEqual({ accept: 6, release: 2, reject: 1 });
});

it('sends a poison record to the destination though the group\'s delivery limit was lower than its retries (Sluice sets its own)', async () => {
  const { topic, failed, onFailure } = await queueTopic(1);
  const group = uniqueName('group');
  const t = kafkajsShareTransport(kafka());
  expect(await t.send('any', alterGroupConfig(group, { 'share.delivery.count.limit': '3' }))).toEqual({ errorCode: 0, errorMessage: null }); // an operator's setting
  await t.close();
  await produce(topic, Array.from({ length: 4 }, (_, i) => ({ value: `v${i}`, partition: 0 })));
  const h = await startRecorder({ topic, consumerGroupId: group, consumptionMode: 'queue', batchSize: 1, failure: failurePolicy({ onFailure }), env: { POISON_OFFSETS: '2' } });
  harnesses.push(h);
  const [sent] = await readTopic(failed, 1, 60_000);
  expect(sent!.value!.toString()).toBe('v2');
  expect(sent!.headers['sluice-failure-attempts']?.toString()).toBe('5'); // maximumRetryAttempts unset: 4 retries
  expect(h.seen().filter((s) => recordsOf(s).some((r) => r.offset === 2))).toHaveLength(5);
}, 120_000);

it('shows the share group\'s backlog on /metrics while records wait, and 0 once every record is accepted', async () => {
  const { topic, onFailure } = await queueTopic(2);
  await produce(topic, Array.from({ length: 40 }, (_, i) => ({ value: `v${i}`, partition: i % 2 })));
  // One invocation of 5 records at a time, a second each: the backlog takes at least 8 s to drain.
  const h = await startRecorder({ topic, consumptionMode: 'queue', batchSize: 5, concurrency: 1, env: { SLEEP_MS: '1000' }, failure: failurePolicy({ onFailure }), httpPort: 0 });
  harnesses.push(h);
  const backlog = async () => (await scrape(h.httpUrl!)).samples('sluice_share_group_lag', { topic });
  const highest: number[] = [];
  await waitFor('a backlog on /metrics', async () => {
    const s = await backlog();
    highest.push(s.reduce((n, x) => n + x.value, 0));
    return s.length === 2 && highest.at(-1)! > 0;
  }, 30_000);
  await waitFor('40 records invoked', () => h.seen().flatMap(recordsOf).length >= 40, 60_000);
  await waitFor('the backlog 0 on both partitions', async () => (await backlog()).every((x) => x.value === 0) && (await backlog()).length === 2, 30_000);
  expect(Math.max(...highest)).toBeLessThanOrEqual(40);
  // Every record this poller acquired it also acknowledged: none left in its hands.
  await waitFor('no record left in hand', async () => (await scrape(h.httpUrl!)).sum('sluice_queue_records_in_hand', { topic }) === 0, 30_000);
  expect(new Set(h.seen().flatMap(recordsOf).map((r) => `${r.partition}@${r.offset}`)).size).toBe(40);
}, 150_000);
