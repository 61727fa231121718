import { describe, expect, it } from 'vitest';
import { buildEvent } from './build-event.ts';
import { recordsOfEvent } from './parse-event.ts';
import type { KafkaRecord } from './record.ts';

const records: KafkaRecord[] = [
  { topic: 'orders', partition: 1, offset: 7, timestamp: 5, timestampType: 'LOG_APPEND_TIME', key: Buffer.from('k'), value: Buffer.from('{"a":1}'), headers: [['h', Buffer.from([0, 255])]] },
  { topic: 'orders', partition: 2, offset: 0, timestamp: 6, timestampType: 'CREATE_TIME', key: null, value: null, headers: [] },
];

describe('an AWS Kafka event read back', () => {
  it('gives the records buildEvent put in, and the source (self-managed and MSK)', () => {
    expect(recordsOfEvent(JSON.parse(JSON.stringify(buildEvent(records, { bootstrapServers: 'b:9092' }))))).toEqual({ records, source: { bootstrapServers: 'b:9092' } });
    const msk = recordsOfEvent(JSON.parse(JSON.stringify(buildEvent(records, { bootstrapServers: 'b:9098', eventSourceArn: 'arn:aws:kafka:x' }))));
    expect(msk.source).toEqual({ bootstrapServers: 'b:9098', eventSourceArn: 'arn:aws:kafka:x' });
  });

  it('refuses what is not one, with the path', () => {
    expect(() => recordsOfEvent({ Records: [] })).toThrow(/no "records" object/);
    expect(() => recordsOfEvent({ records: { 'a-0': [{ topic: 'a', partition: 0 }] } })).toThrow('records["a-0"][0] needs "topic"');
    expect(() => recordsOfEvent({ records: { 'a-0': [{ topic: 'a', partition: 0, offset: 1, value: 5 }] } })).toThrow('records["a-0"][0].value must be base64 text or null.');
    expect(() => recordsOfEvent({ records: {} })).toThrow('The event holds no record.');
  });
});
