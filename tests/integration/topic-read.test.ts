/**
 * framework/cli/topic-read.ts against the broker: `{ last: n }` reads each partition's newest n
 * records (the console's failures view), no more, and a partition shorter than n whole.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { readTopic } from '../../framework/cli/topic-read.ts';
import { brokers, createTopic, deleteTopic, kafka, produce, uniqueName } from '../support/kafka.ts';

const topic = uniqueName('topic-read');

beforeAll(async () => {
  await createTopic(topic, 2);
  await produce(topic, Array.from({ length: 5 }, (_, i) => ({ value: `a${i}`, partition: 0 })));
  await produce(topic, [{ value: 'b0', partition: 1 }]);
});
afterAll(() => deleteTopic(topic));

it('reads the newest n records of every partition with { last: n }', async () => {
  const read: string[] = [];
  await readTopic({ kafka: kafka(), brokers: brokers(), topic, start: { last: 2 }, untilEnd: true, onRecord: (r) => void read.push(`${r.partition}@${r.offset}=${r.value}`) });
  expect(read.sort()).toEqual(['0@3=a3', '0@4=a4', '1@0=b0']);
});
