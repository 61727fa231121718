import { describe, expect, it } from 'vitest';
import { compileCodec } from './codec.ts';
import { unsafeBecause } from './safe-pattern.ts';

const schema = (definition: object) => ({ format: 'JSON' as const, definition: JSON.stringify(definition), references: [] });

describe('safe patterns', () => {
  it.each(['(a+)+$', '^(\\w*\\s?)*$', '(x{2,})*', '((ab)*c)+', '(?:a|b+){3,}'])('refuses %s (a repeated group that repeats without bound)', (p) => {
    expect(unsafeBecause(p)).toMatch(/nested quantifiers/);
  });

  it.each(['^[a-z]+$', '^(ab)+$', '^\\d{3}-\\d{4}$', '(a+)?', '^([a-z]+\\.)?com$', '[(a+)+]', '\\(a+\\)+', '^(\\d+){1}$'])('accepts %s', (p) => {
    expect(unsafeBecause(p)).toBeUndefined();
  });

  it('makes a JSON Schema with such a pattern uncompilable, before any value meets it', () => {
    expect(() => compileCodec(schema({ type: 'string', pattern: '^(a+)+$' }), 'confluent')).toThrow(/does not compile: the schema's pattern .*nested quantifiers/);
    expect(() => compileCodec(schema({ type: 'object', patternProperties: { '(x*)*': { type: 'string' } } }), 'confluent')).toThrow(/nested quantifiers/);
    expect(() => compileCodec(schema({ type: 'string', pattern: 'a'.repeat(1_001) }), 'confluent')).toThrow(/longer than 1000/);
    const codec = compileCodec(schema({ type: 'string', pattern: '^[a-z]+$' }), 'confluent');
    expect(codec.decode(Buffer.from('"abc"'))).toBe('abc');
  });
});
