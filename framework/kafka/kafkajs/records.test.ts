import type { KafkaMessage } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { toKafkaRecord } from './records.ts';

const message = (headers: Record<string, unknown>): KafkaMessage =>
  ({ offset: '7', timestamp: '1000', key: Buffer.from('k'), value: Buffer.from('v'), headers, attributes: 0 }) as unknown as KafkaMessage;
const bounds = { maxHeaders: 3, maxHeaderBytes: 20 };

describe('toKafkaRecord', () => {
  it('unfolds repeated header names and keeps null values', () => {
    const r = toKafkaRecord('t', 1, message({ a: [Buffer.from('1'), Buffer.from('2')], b: null }), bounds);
    expect(r.headers).toEqual([['a', Buffer.from('1')], ['a', Buffer.from('2')], ['b', null]]);
    expect(r.unreadable).toBeUndefined();
  });

  it('marks a record over the header bounds HeadersOverLimit, with its key and value but without its headers', () => {
    const many = toKafkaRecord('t', 1, message({ a: [Buffer.from('1'), Buffer.from('2')], b: Buffer.from('3'), c: Buffer.from('4') }), bounds);
    expect(many).toMatchObject({ offset: 7, key: Buffer.from('k'), value: Buffer.from('v'), headers: [], unreadable: { reason: 'HeadersOverLimit', error: expect.stringMatching(/more than 3 headers/) } });
    const big = toKafkaRecord('t', 1, message({ a: Buffer.alloc(20) }), bounds);
    expect(big.unreadable).toMatchObject({ reason: 'HeadersOverLimit', error: expect.stringMatching(/exceed 20 bytes/) });
  });

  it("never throws: a value kafkajs should not hand over (an unpatched kafkajs's Object.prototype member) is RecordUnreadable", () => {
    const r = toKafkaRecord('t', 1, message({ constructor: [Object, Buffer.from('x')] }), bounds);
    expect(r).toMatchObject({ offset: 7, unreadable: { reason: 'RecordUnreadable', error: expect.stringMatching(/header "constructor"/) } });
  });
});
