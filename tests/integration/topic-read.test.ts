/**
 * framework/cli/topic-read.ts against the broker: `{ last: n }` reads each partition's newest n
 * records (the console's failures view), no more, and a partition shorter than n whole.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readTopic } from '../../framework/cli/topic-read.ts';
import { brokers, createTopic, deleteTopic, kafka, produce, uniqueName } from '../support/kafka.ts';

const topic = uniqueName('topic-read');
const trimmed = uniqueName('topic-read-trimmed');

beforeAll(async () => {
  await createTopic(topic, 2);
  await produce(topic, Array.from({ length: 5 }, (_, i) => ({ value: `a${i}`, partition: 0 })));
  await produce(topic, [{ value: 'b0', partition: 1 }]);
  await createTopic(trimmed, 1);
  await produce(trimmed, Array.from({ length: 5 }, (_, i) => ({ value: `t${i}`, partition: 0 })));
});
afterAll(async () => {
  await deleteTopic(topic);
  await deleteTopic(trimmed);
});

it('reads the newest n records of every partition with { last: n }', async () => {
  const read: string[] = [];
  await readTopic({ kafka: kafka(), brokers: brokers(), topic, start: { last: 2 }, untilEnd: true, onRecord: (r) => void read.push(`${r.partition}@${r.offset}=${r.value}`) });
  expect(read.sort()).toEqual(['0@3=a3', '0@4=a4', '1@0=b0']);
});

it('still reaches the end when the log start passes where { last: n } would begin, before the first fetch', async () => {
  const k = kafka();
  const consumer = k.consumer.bind(k);
  // Records below offset 4 are deleted after the log was measured, before the consumer connects.
  k.consumer = (config) => {
    const c = consumer(config);
    const connect = c.connect.bind(c);
    c.connect = async () => {
      const admin = kafka().admin();
      await admin.connect();
      await admin.fetchTopicMetadata({ topics: [trimmed] });
      await admin.deleteTopicRecords({ topic: trimmed, partitions: [{ partition: 0, offset: '4' }] });
      await admin.disconnect();
      return connect();
    };
    return c;
  };
  const read: number[] = [];
  await readTopic({ kafka: k, brokers: brokers(), topic: trimmed, start: { last: 2 }, untilEnd: true, onRecord: (r) => void read.push(r.offset) });
  expect(read).toEqual([4]);
}, 60_000);
