import { describe, expect, it } from 'vitest';
import { toJsonText } from './json-text.ts';

describe('toJsonText', () => {
  it('writes Buffers and Uint8Arrays as base64, at any depth', () => {
    expect(toJsonText(Buffer.from([0, 1, 2, 255]))).toBe('"AAEC/w=="');
    expect(toJsonText({ a: new Uint8Array([104, 105]), list: [Buffer.alloc(0)], deep: { b: Buffer.from('xyz') } })).toBe('{"a":"aGk=","list":[""],"deep":{"b":"eHl6"}}');
  });

  it('writes every digit of a BigInt, nested or alone, negative or beyond 2^64', () => {
    expect(toJsonText(2n ** 60n + 1n)).toBe('1152921504606846977');
    expect(toJsonText({ n: -(2n ** 63n), list: [1n, 2n ** 70n], inner: { m: 0n } })).toBe('{"n":-9223372036854775808,"list":[1,1180591620717411303424],"inner":{"m":0}}');
  });

  it('leaves alone a string that looks like a marked BigInt of another process', () => {
    const lookalike = 'bigint-000000000000:123';
    expect(toJsonText({ s: lookalike, n: 5n })).toBe(`{"s":"${lookalike}","n":5}`);
    expect(toJsonText([lookalike])).toBe(`["${lookalike}"]`);
  });

  it('writes everything else as JSON.stringify does', () => {
    const value = { a: 1, b: 'two', c: [true, null], d: { e: 1.5 }, u: undefined };
    expect(toJsonText(value)).toBe(JSON.stringify(value));
  });
});
