import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { JsonNumber, JsonTooDeep, parseJson, type JsonValue } from './json.ts';

/** Back to what JSON.parse returns, to compare the two parsers. */
const plain = (v: JsonValue): unknown =>
  v instanceof JsonNumber ? v.value
  : Array.isArray(v) ? v.map(plain)
  : v instanceof Map ? Object.fromEntries([...v].map(([k, x]) => [k, plain(x)]))
  : v;

const nativeParse = (text: string): { ok: true; value: unknown } | { ok: false } => {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
};

describe('parseJson', () => {
  it('reads every JSON text as JSON.parse does', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        expect(plain(parseJson(text)!)).toEqual(JSON.parse(text));
      }),
      { numRuns: 500 },
    );
  });

  it('accepts and rejects exactly what JSON.parse does', () => {
    const pieces = fc.constantFrom('{', '}', '[', ']', ',', ':', '"', '\\', 'u', '0', '1', '-', '.', 'e', 'true', 'null', ' ', '\n', 'a', '\u0001', '"x"', '1.5e3');
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(pieces, { maxLength: 12 }).map((p) => p.join(''))), (text) => {
        const native = nativeParse(text);
        const ours = parseJson(text);
        expect(ours !== undefined).toBe(native.ok);
        if (native.ok) expect(plain(ours!)).toEqual(native.value);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['300', 300],
    ['300.0', 300],
    ['3.0e2', 300],
    ['-0', -0],
    ['12345678901234567890', 12345678901234567890],
  ])('keeps the text of the number %s', (text, value) => {
    const n = parseJson(text);
    expect(n).toBeInstanceOf(JsonNumber);
    expect((n as JsonNumber).text).toBe(text);
    expect((n as JsonNumber).value).toBe(value);
  });

  it('keeps a field named __proto__ as a field', () => {
    const v = parseJson('{"__proto__": {"a": 1}, "b": "\\u0041\\n"}') as Map<string, JsonValue>;
    expect([...v.keys()]).toEqual(['__proto__', 'b']);
    expect(v.get('b')).toBe('A\n');
  });

  it.each(['', '{', '{"a":1,}', '[1,]', '01', '1.', '.5', '+1', "'a'", '"\t"', 'nul', 'true false', '\ufeff{}'])(
    'rejects %j',
    (text) => expect(parseJson(text)).toBeUndefined(),
  );

  it('treats nesting too deep for the stack as not JSON, without throwing', () => {
    expect(parseJson('['.repeat(200_000) + ']'.repeat(200_000))).toBeUndefined();
  });

  it('refuses valid JSON nested past its bound, whatever the mix of arrays and objects, and reads it up to the bound', () => {
    const nest = (depth: number) => '{"a":['.repeat(depth / 2) + '1' + ']}'.repeat(depth / 2);
    expect(parseJson(nest(256), 256)).toBeInstanceOf(Map);
    expect(() => parseJson(nest(258), 256)).toThrow(JsonTooDeep);
    expect(() => parseJson('['.repeat(10_000) + ']'.repeat(10_000), 256)).toThrow(/deeper than 256 levels/);
    // Wide is not deep: siblings do not add up.
    expect(parseJson(`[${'[[1]],'.repeat(10_000)}0]`, 3)).toHaveLength(10_001);
  });
});
