import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DecodeError } from './decode-error.ts';
import { useLinearUniqueItems } from './unique-items.ts';

const schema = { type: 'array', uniqueItems: true };
const ajvOwn = new Ajv({ strict: false }).compile(schema);
const linear = (() => {
  const ajv = new Ajv({ strict: false });
  useLinearUniqueItems(ajv);
  return ajv.compile(schema);
})();

/** A JSON value with its objects' keys in a random order: equal to the value, written differently. */
const reordered = (value: unknown, rank: (k: string) => number): unknown => {
  if (Array.isArray(value)) return value.map((v) => reordered(v, rank));
  if (typeof value !== 'object' || value === null) return value;
  const keys = Object.keys(value).sort((a, b) => rank(a) - rank(b));
  return Object.fromEntries(keys.map((k) => [k, reordered((value as Record<string, unknown>)[k], rank)]));
};

describe('linear uniqueItems', () => {
  it("gives Ajv's own verdict and the pair it names, on arrays with equal items written in other key orders", () => {
    const items = fc.array(fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom(0, -0, 1, '1', [1], { a: 1 }, { a: 1, b: [] }, null)), { maxLength: 8 });
    fc.assert(
      fc.property(items, fc.array(fc.nat(), { minLength: 1 }), fc.array(fc.nat({ max: 7 }), { maxLength: 3 }), (values, ranks, copies) => {
        const rank = (k: string) => ranks[k.length % ranks.length]! + k.charCodeAt(0);
        const data = [...values, ...copies.filter((c) => c < values.length).map((c) => reordered(values[c], rank))];
        // Ajv's own keyword (fast-deep-equal) throws on an object with a key named toString or
        // valueOf whose value is not a function (it calls a.toString()): no verdict to compare then.
        let verdict: boolean;
        try {
          verdict = ajvOwn(data);
        } catch (e) {
          if (e instanceof TypeError) return fc.pre(false);
          throw e;
        }
        expect(linear(data)).toBe(verdict);
        // Both name a duplicate pair; Ajv searches from the end, this from the start, so only the verdict and the message's shape agree.
        if (!verdict) expect(linear.errors?.[0]?.message).toMatch(/^must NOT have duplicate items \(items ## \d+ and \d+ are identical\)$/);
      }),
      { numRuns: 1_000 },
    );
  });

  it('compares objects with keys named after Object.prototype\'s members, where Ajv\'s own keyword throws', () => {
    expect(linear(JSON.parse('[{}, {"toString": []}]'))).toBe(true);
    expect(linear(JSON.parse('[{"valueOf": 1}, {"valueOf": 1}]'))).toBe(false);
  });

  it('keeps a key named __proto__ as a key when comparing', () => {
    expect(linear(JSON.parse('[{"__proto__": 1}, {"__proto__": 2}]'))).toBe(true);
    expect(linear(JSON.parse('[{"__proto__": 1}, {"__proto__": 1}]'))).toBe(false);
    expect(linear(JSON.parse('[{"__proto__": {"a": 1}}, {}]'))).toBe(true);
  });

  it('compares an item nested too deep to compare only when another could equal it (Ajv\'s deep equality recursed only then), and refuses it then, as a DecodeError', () => {
    const deep = () => JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    // A review found these refused, where Ajv accepts them: one item, or items of other kinds or sizes.
    expect(linear([deep()])).toBe(true);
    expect(linear([deep(), 1])).toBe(true);
    expect(linear([deep(), {}])).toBe(true);
    expect(linear([deep(), [1, 2]])).toBe(true);
    expect(() => linear([deep(), [1]])).toThrow(DecodeError);
    expect(() => linear([deep(), deep()])).toThrow(DecodeError);
  });
});
