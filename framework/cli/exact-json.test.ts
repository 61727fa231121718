import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseExact } from './exact-json.ts';

describe('parseExact', () => {
  it('keeps an integer past 2^53 exactly, as a BigInt, and everything else as JSON.parse reads it', () => {
    expect(parseExact('{"id":9007199254740993,"n":1,"f":1.5e300,"s":"9007199254740993","neg":[-9223372036854775808]}')).toEqual({
      id: 9007199254740993n, n: 1, f: 1.5e300, s: '9007199254740993', neg: [-9223372036854775808n],
    });
    expect(parseExact('"a \\" 12345678901234567890 b"')).toBe('a " 12345678901234567890 b');
    expect(() => parseExact('{"a":')).toThrow(SyntaxError);
  });

  it('agrees with JSON.parse on any JSON, but for the exact value of integers past 2^53', () => {
    const asNumbers = (v: unknown): unknown =>
      typeof v === 'bigint' ? Number(v) : Array.isArray(v) ? v.map(asNumbers) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, asNumbers(x)])) : v;
    fc.assert(fc.property(fc.jsonValue(), (v) => {
      const text = JSON.stringify(v);
      expect(asNumbers(parseExact(text))).toEqual(JSON.parse(text));
    }), { numRuns: 500 });
  });
});
