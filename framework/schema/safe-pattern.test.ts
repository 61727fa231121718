import { describe, expect, it } from 'vitest';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { compileCodec } from './codec.ts';
import { DecodeError } from './decode-error.ts';
import { linearRegExp } from './safe-pattern.ts';

const schema = (definition: object) => ({ format: 'JSON' as const, definition: JSON.stringify(definition), references: [] });
const pattern = (p: string) => linearRegExp({ left: Number.MAX_SAFE_INTEGER })(p, 'u');

describe('JSON Schema patterns, run by RE2', () => {
  // Each of these backtracks exponentially in the native RegExp ((a|a)* took 2.6 s on 27 characters).
  it.each([
    ['^(a|a)*$', 'a'],
    ['^(a+)+$', 'a'],
    ['^(x*)*$', 'x'],
    ['^(\\w|\\d)+$', '1'],
  ])('%s against a crafted 50 KB value answers (no match), and matches the honest one', (p, c) => {
    const crafted = `${c.repeat(50_000)}!`;
    expect(pattern(p).test(crafted)).toBe(false);
    expect(pattern(p).test(c.repeat(50_000))).toBe(true);
  });

  it.each([
    ['^a.b$', 'a\rb', false],
    ['^a.b$', 'a\u2028b', false],
    ['^a.b$', 'a😀b', true],
    ['^\\s$', '\u00a0', true],
    ['^[\\sx]+$', 'x\u3000x', true],
    ['^\\S+$', 'a\u00a0b', false],
    ['^[^]$', '\n', true],
    ['a[]', 'a', false],
    ['^\\u00e9\\u{1F600}$', 'é😀', true],
    ['^(?<year>\\d{4})-\\d{2}$', '2024-01', true],
    ['^[a-z/]+\\.com$', 'a/b.com', true],
    ['^\\d{3}-\\d{4}$', '555-1234', true],
  ])('keeps the ECMA-262 meaning of %j (RE2 spells some differently): %j -> %s', (p, value, matches) => {
    expect(pattern(p).test(value)).toBe(matches);
  });

  it.each([
    ['(a)\\1', 'a backreference'],
    ['(?<x>a)\\k<x>', 'a backreference'],
    ['a(?=b)', 'a lookahead or lookbehind'],
    ['(?<!a)b', 'a lookahead or lookbehind'],
    ['a{1001}', 'cannot run in linear time: .*repeat count'],
  ])('refuses %s, naming why', (p, why) => {
    expect(() => pattern(p)).toThrow(new RegExp(`pattern .*${why}`));
  });

  it('makes a JSON Schema with such a pattern uncompilable, before any value meets it', () => {
    expect(() => compileCodec(schema({ type: 'string', pattern: '^(a)\\1$' }), 'confluent')).toThrow(/does not compile: the schema's pattern "\^\(a\)\\\\1\$" uses a backreference/);
    expect(() => compileCodec(schema({ type: 'object', patternProperties: { '(?=x)': { type: 'string' } } }), 'confluent')).toThrow(/lookahead/);
    expect(() => compileCodec(schema({ type: 'string', pattern: 'a'.repeat(1_001) }), 'confluent')).toThrow(/longer than 1000/);
    expect(() => compileCodec(schema({ type: 'string', pattern: '(' }), 'confluent')).toThrow(/Invalid regular expression/);
  });

  it('makes a JSON Schema uncompilable once its patterns compile to more than maxPatternProgram RE2 instructions, before compiling the rest', () => {
    // 150 distinct counted repeats, each 2,000 to 3,000 instructions: about 400,000 together, within every other bound.
    const properties = Object.fromEntries(Array.from({ length: 150 }, (_, i) => [`p${i}`, { type: 'string', pattern: `^(?:k${i}){1000}$` }]));
    expect(() => compileCodec(schema({ type: 'object', properties }), 'confluent')).toThrow(/patterns compile to more than 250000 RE2 instructions \(maxPatternProgram/);
    // Ordinary patterns stay far below it.
    const ordinary = Object.fromEntries(Array.from({ length: 80 }, (_, i) => [`p${i}`, { type: 'string', pattern: `^[a-z0-9-]{1,64}$|^k${i}$` }]));
    expect(() => compileCodec(schema({ type: 'object', properties: ordinary }), 'confluent')).not.toThrow();
  });

  it('validates records with patterns, the overlapping alternation included', () => {
    const codec = compileCodec(schema({ type: 'object', properties: { s: { type: 'string', pattern: '^(a|a)*$' } }, patternProperties: { '^x(y|y)*$': { type: 'integer' } } }), 'confluent');
    expect(codec.decode(Buffer.from(JSON.stringify({ s: 'a'.repeat(50_000), xyyy: 1 })))).toEqual({ s: 'a'.repeat(50_000), xyyy: 1 });
    expect(() => codec.decode(Buffer.from(JSON.stringify({ s: `${'a'.repeat(50_000)}!` })))).toThrow(/\/s must match pattern/);
    expect(() => codec.decode(Buffer.from(JSON.stringify({ xyy: 'no' })))).toThrow(/\/xyy must be integer/);
  });

  it('fails a record whose pattern tests would cost more than maxPatternSteps, and renews the budget for the next record', () => {
    const codec = compileCodec(schema({ type: 'array', items: { type: 'string', pattern: '^[ab]*a[ab]{20}$' } }), 'confluent');
    // Each item matches; the pattern's RE2 program is over 20 instructions: 10 KB items spend the budget within this many.
    const items = Math.ceil(INPUT_BOUNDS.maxPatternSteps / 20 / 10_000);
    const tooMuch = Buffer.from(JSON.stringify(Array.from({ length: items }, () => `${'b'.repeat(9_979)}a${'b'.repeat(20)}`)));
    expect(() => codec.decode(tooMuch)).toThrow(DecodeError);
    expect(() => codec.decode(tooMuch)).toThrow(/more than 50000000 steps \(maxPatternSteps/);
    expect(codec.decode(Buffer.from(JSON.stringify([`a${'b'.repeat(20)}`])))).toEqual([`a${'b'.repeat(20)}`]);
  });
});
