import { describe, expect, it } from 'vitest';
import { compileCodec } from './codec.ts';
import { DecodeError } from './decode-error.ts';
import type { RegisteredSchema } from './registry.ts';

const jsonSchema = (schema: object, references: RegisteredSchema['references'] = []): RegisteredSchema => ({ format: 'JSON', definition: JSON.stringify(schema), references });
const order = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    id: { type: 'string' },
    lines: { type: 'array', items: { type: 'object', properties: { qty: { type: 'integer', minimum: 1 } }, required: ['qty'] } },
  },
  required: ['id'],
};

describe('JSON Schema codec', () => {
  it("returns the producer's own text, spacing and key order included", () => {
    const codec = compileCodec(jsonSchema(order), 'confluent');
    const text = '{ "lines" : [ {"qty":2} ],\n  "id": "o-1",  "big": 12345678901234567890 }';
    expect(codec.toJson(codec.decode(Buffer.from(text)))).toBe(text);
    const other = '{"id":"o-2"}';
    expect(codec.toJson(codec.decode(Buffer.from(other)))).toBe(other);
  });

  it('refuses a value against the schema, naming where it fails', () => {
    const codec = compileCodec(jsonSchema(order), 'confluent');
    expect(() => codec.decode(Buffer.from('{"id":"o","lines":[{"qty":2},{"qty":0}]}'))).toThrow(DecodeError);
    expect(() => codec.decode(Buffer.from('{"id":"o","lines":[{"qty":2},{"qty":0}]}'))).toThrow('the JSON does not match the registered schema: /lines/1/qty must be >= 1');
    expect(() => codec.decode(Buffer.from('{"lines":[]}'))).toThrow("the JSON does not match the registered schema: / must have required property 'id'");
  });

  it('refuses bytes that are not JSON text', () => {
    const codec = compileCodec(jsonSchema(order), 'confluent');
    expect(() => codec.decode(Buffer.from('{"id":'))).toThrow(DecodeError);
    expect(() => codec.decode(Buffer.from([0xff, 0xfe]))).toThrow('the bytes are not JSON of the registered schema');
  });

  it('validates by draft 2020-12 when the schema says so (prefixItems, $defs)', () => {
    const pair = {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $defs: { code: { type: 'string', pattern: '^[A-Z]{3}$' } },
      type: 'array',
      prefixItems: [{ $ref: '#/$defs/code' }, { type: 'number' }],
      items: false,
    };
    const codec = compileCodec(jsonSchema(pair), 'confluent');
    expect(codec.toJson(codec.decode(Buffer.from('["EUR", 1.5]')))).toBe('["EUR", 1.5]');
    expect(() => codec.decode(Buffer.from('["eur", 1.5]'))).toThrow('/0 must match pattern');
    expect(() => codec.decode(Buffer.from('["EUR", 1.5, 3]'))).toThrow(DecodeError);
  });

  it('resolves a $ref to a referenced schema by the name the reference carries', () => {
    const address = { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] };
    const customer = {
      $schema: 'http://json-schema.org/draft-07/schema#',
      type: 'object',
      properties: { name: { type: 'string' }, address: { $ref: 'address.schema.json' } },
      required: ['address'],
    };
    const codec = compileCodec(jsonSchema(customer, [{ name: 'address.schema.json', schema: jsonSchema(address) }]), 'confluent');
    const text = '{"name":"Ada","address":{"city":"London"}}';
    expect(codec.toJson(codec.decode(Buffer.from(text)))).toBe(text);
    expect(() => codec.decode(Buffer.from('{"name":"Ada","address":{}}'))).toThrow("/address must have required property 'city'");
  });

  it('refuses a schema whose $ref no reference provides, as a DecodeError', () => {
    const schema = jsonSchema({ type: 'object', properties: { a: { $ref: 'missing.json' } } });
    expect(() => compileCodec(schema, 'confluent')).toThrow(DecodeError);
    expect(() => compileCodec(schema, 'confluent')).toThrow('the registered JSON schema does not compile');
  });
});
