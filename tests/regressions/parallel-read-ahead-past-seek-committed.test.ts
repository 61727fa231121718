/**
 * Records committed past before they ran (issue 39, item 1): when a librdkafka batch ended short
 * (a retry held, so the partition fetched again from a record it holds), the member cleared the
 * partition's buffer and asked librdkafka to seek, which it does later on its own thread; a poll
 * already under way could still return this partition's read-ahead from before the seek into the
 * cleared buffer. The next batch then began past records not yet taken in, the parallel state
 * counted the gap as done (a compacted log has such gaps), and the commit passed records that
 * never ran. The member now seeks between polls, and drops what a poll begun before the seek
 * returns of the partition.
 *
 * The shape: a producer keeps writing while parallel chunks run and records fail once each, so
 * batches end at the log's end with a retry held while more records are on their way.
 */
import kafkajs from 'kafkajs';
import { afterAll, expect, it } from 'vitest';
import { recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, deleteTopic, offsets, uniqueName, waitFor } from '../support/kafka.ts';

const TOTAL = 600;
const SENDS = 60;

const topics: string[] = [];
let h: Harness | undefined;
afterAll(async () => {
  await h?.stop();
  await Promise.all(topics.map(deleteTopic));
});

it.each([4, 1])('records written while retries are held: every committed record ran (parallelizationFactor %i)', async (parallelizationFactor) => {
  const topic = uniqueName('read-ahead');
  topics.push(topic);
  await createTopic(topic, 1);
  const failOnce = Array.from({ length: TOTAL }, (_, o) => o).filter((o) => o % 17 === 3);
  await h?.stop();
  h = await startRecorder({ topic, batchSize: 10, parallelizationFactor, env: { FAIL_ONCE_OFFSETS: failOnce.join(',') } });

  const producer = new kafkajs.Kafka({ brokers: brokers(), logLevel: kafkajs.logLevel.NOTHING }).producer();
  await producer.connect();
  const per = TOTAL / SENDS;
  for (let s = 0; s < SENDS; s++) {
    await producer.send({ topic, messages: Array.from({ length: per }, (_, i) => ({ key: `k${(s * per + i) % 8}`, value: `v${s * per + i}` })) });
    await new Promise((r) => setTimeout(r, 40));
  }
  await producer.disconnect();
  await waitFor(`all ${TOTAL} committed`, async () => (await offsets(h!.trigger.consumerGroupId, topic))[0]!.committed === TOTAL, 120_000);

  // Offsets of invocations that returned (the failed ones threw): each record must be among them.
  const done = new Set(h.completed());
  const ran = new Set(h.seen().filter((s) => done.has(s.requestId)).flatMap(recordsOf).map((r) => r.offset));
  const never = Array.from({ length: TOTAL }, (_, o) => o).filter((o) => !ran.has(o));
  console.log(`[read-ahead, factor ${parallelizationFactor}] committed ${TOTAL}; ${ran.size} records ran ok; committed and never ran ok: ${JSON.stringify(never)}`);
  expect(never).toEqual([]);
});
