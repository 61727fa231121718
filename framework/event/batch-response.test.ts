import { describe, expect, it } from 'vitest';
import { readBatchResponse } from './batch-response.ts';
import type { KafkaRecord } from './record.ts';

const chunk: KafkaRecord[] = [10, 11, 12, 13].map((offset) => ({
  topic: 'orders', partition: 2, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: null, headers: [],
}));
const cyclic = () => {
  const o: Record<string, unknown> = {};
  o['self'] = o;
  return o;
};
const revoked = () => {
  const r = Proxy.revocable({}, {});
  r.revoke();
  return r.proxy;
};
const failure = (offset: unknown, partition: unknown = 'orders-2') => ({ itemIdentifier: { partition, offset } });

describe('readBatchResponse', () => {
  it.each([
    ['nothing returned', undefined],
    ['null', null],
    ['an object without batchItemFailures', { ok: true }],
    ['an empty list', { batchItemFailures: [] }],
  ])('reads %s as success', (_what, payload) => {
    expect(readBatchResponse(payload, chunk)).toEqual({ ok: true, failedFrom: undefined, failed: [] });
  });

  it('takes the lowest failed offset, as a number or a numeric string', () => {
    expect(readBatchResponse({ batchItemFailures: [failure(12), failure(11)] }, chunk)).toEqual({ ok: true, failedFrom: 11, failed: [11, 12] });
    expect(readBatchResponse({ batchItemFailures: [failure('13')] }, chunk)).toEqual({ ok: true, failedFrom: 13, failed: [13] });
  });

  it.each([
    ['a string', 'oops', /the response is "oops", not an object/],
    ['batchItemFailures not a list', { batchItemFailures: {} }, /batchItemFailures is \{\}, not an array/],
    ['an entry without itemIdentifier', { batchItemFailures: [{}] }, /batchItemFailures\[0\]\.itemIdentifier is missing/],
    ['another partition', { batchItemFailures: [failure(11, 'orders-1')] }, /partition is "orders-1"; this invocation held "orders-2"/],
    ['an offset outside the chunk', { batchItemFailures: [failure(99)] }, /offset is 99, not an offset of this invocation \(10–13\)/],
    ['a non-numeric offset', { batchItemFailures: [failure('x')] }, /offset is "x"/],
    // What JSON cannot carry (a custom invoker's answer; Lambda's and the local worker's are JSON): described, never thrown.
    ['a BigInt offset', { batchItemFailures: [failure(11n)] }, /offset is 11n \(a BigInt, which JSON cannot carry\), not an offset of this invocation/],
    ['an offset with a cycle', { batchItemFailures: [failure(cyclic())] }, /offset is a value JSON cannot encode \(a cycle, or a BigInt within it\)/],
    ['a list with a cycle as the response', (() => { const a: unknown[] = []; a.push(a); return a; })(), /the response is a value JSON cannot encode .*, not an object/],
    // Neither JSON nor String() can read it: an object without a prototype whose toJSON gives nothing.
    ['an offset with no string form', { batchItemFailures: [failure(Object.assign(Object.create(null), { toJSON: () => undefined }))] }, /offset is a value with no string form, not an offset/],
    // Reading the answer throws: a getter of its, a revoked Proxy as the answer or as an entry.
    ['a batchItemFailures getter that throws', { get batchItemFailures(): unknown { throw new Error('gone'); } }, /reading it threw Error: gone/],
    ['a revoked Proxy as the response', revoked(), /reading it threw TypeError: .*revoked/],
    ['a revoked Proxy as an entry', { batchItemFailures: [revoked()] }, /reading it threw TypeError: .*revoked/],
  ])('fails the whole chunk for %s, with the reason', (_what, payload, reason) => {
    const read = readBatchResponse(payload, chunk);
    expect(read.ok).toBe(false);
    expect(!read.ok && read.reason).toMatch(reason);
  });
});
