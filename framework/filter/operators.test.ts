import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { compileFilters } from './compile.ts';
import type { KafkaRecord } from '../event/record.ts';

const record = (text: string): KafkaRecord => ({
  topic: 't', partition: 0, offset: 0, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from(text), headers: [],
});
/** Does `"f": rule` match the value whose field f is written as `fieldJson` (undefined: no field)? */
const field = (rule: unknown[], fieldJson: string | undefined): boolean =>
  compileFilters([{ value: { f: rule } }])(record(fieldJson === undefined ? '{"g": 1}' : `{"f": ${fieldJson}}`));

describe('matchers, one per operator', () => {
  it.each<[string, unknown[], string | undefined, boolean]>([
    ['string equals', ['a'], '"a"', true],
    ['string is not a number', ['1'], '1', false],
    ['number is not a string', [1], '"1"', false],
    ['true', [true], 'true', true],
    ['true is not "true"', [true], '"true"', false],
    ['false', [false], 'false', true],
    ['null', [null], 'null', true],
    ['null is not a missing field', [null], undefined, false],
    ['negative number text', [-1.5], '-1.5', true],
    // prefix / suffix: strings only (EventBridge: "You can use prefix matching for string values").
    ['prefix', [{ prefix: 'us-' }], '"us-east-1"', true],
    ['prefix is case-sensitive', [{ prefix: 'us-' }], '"US-east-1"', false],
    ['prefix on a number', [{ prefix: '1' }], '12', false],
    ['prefix equals-ignore-case (EventB example)', [{ prefix: { 'equals-ignore-case': 'EventB' } }], '"eventbridge"', true],
    ['suffix', [{ suffix: '.png' }], '"a.png"', true],
    ['suffix is case-sensitive', [{ suffix: '.png' }], '"a.PNG"', false],
    ['suffix equals-ignore-case (.png example)', [{ suffix: { 'equals-ignore-case': '.png' } }], '"a.PNG"', true],
    ['equals-ignore-case', [{ 'equals-ignore-case': 'alice' }], '"aLiCe"', true],
    ['equals-ignore-case is whole-string', [{ 'equals-ignore-case': 'alice' }], '"alice2"', false],
    // anything-but: single string, single number, lists of either (EventBridge examples).
    ['anything-but string', [{ 'anything-but': 'initializing' }], '"running"', true],
    ['anything-but string, excluded', [{ 'anything-but': 'initializing' }], '"initializing"', false],
    ['anything-but number', [{ 'anything-but': 123 }], '124', true],
    ['anything-but number, excluded', [{ 'anything-but': 123 }], '123', false],
    ['anything-but string list', [{ 'anything-but': ['stopped', 'overloaded'] }], '"overloaded"', false],
    ['anything-but number list', [{ 'anything-but': [100, 200, 300] }], '200', false],
    ['anything-but numbers compare by value', [{ 'anything-but': [300] }], '3.0e2', false],
    ['anything-but a string list lets a number through', [{ 'anything-but': ['1'] }], '1', true],
    ['anything-but needs the field', [{ 'anything-but': ['x'] }], undefined, false],
    ['anything-but on an array: some element differs', [{ 'anything-but': ['a'] }], '["a", "b"]', true],
    ['anything-but on an array: every element excluded', [{ 'anything-but': ['a', 'b'] }], '["a", "b"]', false],
    // numeric: JSON numbers only.
    ['numeric =', [{ numeric: ['=', 301.8] }], '3.018e2', true],
    ['numeric >', [{ numeric: ['>', 0] }], '0', false],
    ['numeric >=', [{ numeric: ['>=', 0] }], '0', true],
    ['numeric <', [{ numeric: ['<', 10] }], '10', false],
    ['numeric <=', [{ numeric: ['<=', 10] }], '10', true],
    ['numeric range, open below', [{ numeric: ['>', 10, '<=', 20] }], '10', false],
    ['numeric range, closed above', [{ numeric: ['>', 10, '<=', 20] }], '20', true],
    ['numeric range, >= and <', [{ numeric: ['>=', 10, '<', 20] }], '20', false],
    ['numeric on a numeric string', [{ numeric: ['>', 0] }], '"5"', false],
    ['numeric on an array', [{ numeric: ['>', 5] }], '[1, 7]', true],
    // exists: leaves only.
    ['exists true, value null', [{ exists: true }], 'null', true],
    ['exists true, empty array', [{ exists: true }], '[]', false],
    ['exists true, object', [{ exists: true }], '{"a": 1}', false],
    ['exists false, missing', [{ exists: false }], undefined, true],
    ['exists false, empty array', [{ exists: false }], '[]', true],
    ['exists false with another matcher: either may match', [{ exists: false }, 'a'], '"a"', true],
    // a list is OR of its matchers.
    ['list of mixed matchers', ['x', { prefix: 'ab' }, { numeric: ['>', 5] }], '6', true],
    ['array of arrays is flattened', ['b'], '[["a"], ["b"]]', true],
  ])('%s', (_, rule, fieldJson, expected) => expect(field(rule, fieldJson)).toBe(expected));
});

describe('matcher properties', () => {
  const text = fc.string({ maxLength: 8 });

  it('anything-but [s] is the complement of [s] on a present string', () => {
    fc.assert(
      fc.property(text, text, (s, v) => {
        const value = JSON.stringify(v);
        expect(field([{ 'anything-but': [s] }], value)).toBe(!field([s], value));
      }),
    );
  });

  it('anything-but a list is the complement of the list on a present string', () => {
    fc.assert(
      fc.property(fc.array(fc.constantFrom<string>('a', 'b', 'c'), { minLength: 1 }), fc.constantFrom('a', 'b', 'c', 'd'), (list, v) => {
        expect(field([{ 'anything-but': list }], JSON.stringify(v))).toBe(!list.includes(v));
      }),
    );
  });

  it('prefix, suffix and equals-ignore-case agree with the string functions', () => {
    fc.assert(
      fc.property(text, text, (a, v) => {
        const value = JSON.stringify(v);
        expect(field([{ prefix: a }], value)).toBe(v.startsWith(a));
        expect(field([{ suffix: a }], value)).toBe(v.endsWith(a));
        expect(field([{ 'equals-ignore-case': a }], value)).toBe(v.toLowerCase() === a.toLowerCase());
      }),
    );
  });

  it('a numeric range agrees with the comparisons it names', () => {
    const n = fc.integer({ min: -1000, max: 1000 }).map((i) => i / 4);
    fc.assert(
      fc.property(n, n, n, fc.boolean(), fc.boolean(), (lo, hi, x, openLo, openHi) => {
        fc.pre(lo < hi);
        const rule = [{ numeric: [openLo ? '>' : '>=', lo, openHi ? '<' : '<=', hi] }];
        const expected = (openLo ? x > lo : x >= lo) && (openHi ? x < hi : x <= hi);
        expect(field(rule, JSON.stringify(x))).toBe(expected);
      }),
    );
  });

  it('a number pattern matches the number written the shortest way, and numeric = matches it however written', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e6, max: 1e6 }), (i) => {
        expect(field([i], String(i))).toBe(true);
        expect(field([{ numeric: ['=', i] }], `${i}.0`)).toBe(true);
      }),
    );
  });
});
