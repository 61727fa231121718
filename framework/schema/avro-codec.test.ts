import avro from 'avsc';
import { describe, expect, it } from 'vitest';
import { compileCodec } from './codec.ts';
import { DecodeError } from './decode-error.ts';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import type { RegisteredSchema } from './registry.ts';

const avroSchema = (schema: object, references: RegisteredSchema['references'] = []): RegisteredSchema => ({ format: 'AVRO', definition: JSON.stringify(schema), references });
/** Payload -> the JSON text the event's JSON format delivers. */
const jsonOf = (schema: RegisteredSchema, payload: Buffer) => {
  const codec = compileCodec(schema, 'confluent');
  return codec.toJson(codec.decode(payload));
};
/** The test's own Avro long: zigzag, then a varint, on BigInts. */
function avroLong(n: bigint): Buffer {
  let v = n >= 0n ? n << 1n : (-n << 1n) - 1n;
  const out: number[] = [];
  while (v >= 0x80n) {
    out.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  out.push(Number(v));
  return Buffer.from(out);
}

const order = {
  type: 'record',
  name: 'Order',
  namespace: 'com.acme',
  fields: [
    { name: 'id', type: 'long' },
    { name: 'note', type: ['null', 'string'] },
    { name: 'amount', type: ['int', 'string', 'double'] },
    { name: 'blob', type: 'bytes' },
    { name: 'code', type: { type: 'fixed', name: 'Code', size: 3 } },
    { name: 'status', type: { type: 'enum', name: 'Status', symbols: ['NEW', 'PAID'] } },
    { name: 'tags', type: { type: 'array', items: 'string' } },
    { name: 'counts', type: { type: 'map', values: 'int' } },
  ],
};

describe('Avro codec', () => {
  it('renders plain JSON: unions unwrapped, bytes and fixed as base64, enums by symbol', () => {
    const writer = avro.Type.forSchema(order as avro.Schema, { wrapUnions: true });
    const payload = writer.toBuffer({
      id: 42,
      note: { string: 'leave at the door' },
      amount: { double: 9.5 },
      blob: Buffer.from([0, 1, 2, 255]),
      code: Buffer.from('abc'),
      status: 'PAID',
      tags: ['a', 'b'],
      counts: { x: 1 },
    });
    expect(JSON.parse(jsonOf(avroSchema(order), payload))).toEqual({
      id: 42,
      note: 'leave at the door',
      amount: 9.5,
      blob: 'AAEC/w==',
      code: 'YWJj',
      status: 'PAID',
      tags: ['a', 'b'],
      counts: { x: 1 },
    });
    const empty = writer.toBuffer({ id: -1, note: null, amount: { int: 3 }, blob: Buffer.alloc(0), code: Buffer.from('xyz'), status: 'NEW', tags: [], counts: {} });
    expect(jsonOf(avroSchema(order), empty)).toBe('{"id":-1,"note":null,"amount":3,"blob":"","code":"eHl6","status":"NEW","tags":[],"counts":{}}');
  });

  it('decodes unions avsc cannot leave unwrapped: two records, string and enum, int and long', () => {
    const created = { type: 'record', name: 'Created', fields: [{ name: 'id', type: 'string' }] };
    const deleted = { type: 'record', name: 'Deleted', fields: [{ name: 'id', type: 'string' }, { name: 'hard', type: 'boolean' }] };
    const event = {
      type: 'record',
      name: 'Event',
      fields: [
        { name: 'body', type: ['null', created, deleted] },
        { name: 'label', type: ['string', { type: 'enum', name: 'Label', symbols: ['A', 'B'] }] },
        { name: 'n', type: ['int', 'long'] },
        { name: 'many', type: { type: 'array', items: ['null', 'Created', 'Deleted'] } },
        { name: 'byKey', type: { type: 'map', values: ['int', 'long'] } },
      ],
    };
    const writer = avro.Type.forSchema(event as avro.Schema, { wrapUnions: true });
    const payload = writer.toBuffer({
      body: { Deleted: { id: 'o-1', hard: true } },
      label: { Label: 'B' },
      n: { long: 5 },
      many: [null, { Created: { id: 'o-2' } }],
      byKey: { k: { int: 1 } },
    });
    expect(jsonOf(avroSchema(event), payload)).toBe('{"body":{"id":"o-1","hard":true},"label":"B","n":5,"many":[null,{"id":"o-2"}],"byKey":{"k":1}}');
  });

  it('decodes a top-level union of referenced records (several event types in one topic)', () => {
    const created = { type: 'record', name: 'Created', namespace: 'com.acme', fields: [{ name: 'id', type: 'string' }] };
    const deleted = { type: 'record', name: 'Deleted', namespace: 'com.acme', fields: [{ name: 'id', type: 'string' }] };
    const writer = avro.Type.forSchema([created, deleted] as avro.Schema, { wrapUnions: true });
    const schema: RegisteredSchema = {
      format: 'AVRO',
      definition: '["com.acme.Created", "com.acme.Deleted"]',
      references: [{ name: 'com.acme.Created', schema: avroSchema(created) }, { name: 'com.acme.Deleted', schema: avroSchema(deleted) }],
    };
    expect(jsonOf(schema, writer.toBuffer({ 'com.acme.Deleted': { id: 'o-9' } }))).toBe('{"id":"o-9"}');
  });

  it('keeps every digit of a long beyond 2^53 in the JSON text', () => {
    const schema = avroSchema({ type: 'record', name: 'Big', fields: [{ name: 'n', type: 'long' }, { name: 'small', type: 'long' }] });
    const big = 2n ** 60n + 1n;
    expect(jsonOf(schema, Buffer.concat([avroLong(big), avroLong(-7n)]))).toBe('{"n":1152921504606846977,"small":-7}');
    expect(jsonOf(schema, Buffer.concat([avroLong(-(2n ** 63n)), avroLong(2n ** 53n - 1n)]))).toBe('{"n":-9223372036854775808,"small":9007199254740991}');
  });

  it('refuses a payload with a byte after the datum, or one cut short', () => {
    const schema = avroSchema(order);
    const payload = avro.Type.forSchema(order as avro.Schema, { wrapUnions: true }).toBuffer({
      id: 1, note: null, amount: { int: 1 }, blob: Buffer.alloc(0), code: Buffer.from('abc'), status: 'NEW', tags: [], counts: {},
    });
    const codec = compileCodec(schema, 'confluent');
    expect(() => codec.decode(Buffer.concat([payload, Buffer.from([0])]))).toThrow(DecodeError);
    expect(() => codec.decode(Buffer.concat([payload, Buffer.from([0])]))).toThrow('the bytes are not Avro of the registered schema');
    expect(() => codec.decode(payload.subarray(0, payload.length - 2))).toThrow(DecodeError);
  });

  it('decodes with a record type that a reference defines and the schema uses by name', () => {
    const address = { type: 'record', name: 'Address', namespace: 'com.acme.common', fields: [{ name: 'city', type: 'string' }, { name: 'zip', type: ['null', 'string'], default: null }] };
    const shipment = { type: 'record', name: 'Shipment', namespace: 'com.acme', fields: [{ name: 'to', type: 'com.acme.common.Address' }, { name: 'from', type: ['null', 'com.acme.common.Address'] }] };
    // The producer's view: the same types inlined.
    const inlined = { ...shipment, fields: [{ name: 'to', type: address }, { name: 'from', type: ['null', 'com.acme.common.Address'] }] };
    const payload = avro.Type.forSchema(inlined as avro.Schema, { wrapUnions: true }).toBuffer({
      to: { city: 'Lyon', zip: { string: '69001' } },
      from: { 'com.acme.common.Address': { city: 'Paris', zip: null } },
    });
    const schema = avroSchema(shipment, [{ name: 'com.acme.common.Address', schema: avroSchema(address) }]);
    expect(jsonOf(schema, payload)).toBe('{"to":{"city":"Lyon","zip":"69001"},"from":{"city":"Paris","zip":null}}');
  });

  it('compiles a reference shared by two others once (A references B and C, both reference D)', () => {
    const money = { type: 'record', name: 'Money', namespace: 'com.acme.common', fields: [{ name: 'units', type: 'long' }, { name: 'currency', type: 'string' }] };
    const line = { type: 'record', name: 'Line', namespace: 'com.acme', fields: [{ name: 'sku', type: 'string' }, { name: 'price', type: 'com.acme.common.Money' }] };
    const fee = { type: 'record', name: 'Fee', namespace: 'com.acme', fields: [{ name: 'amount', type: 'com.acme.common.Money' }] };
    const invoice = { type: 'record', name: 'Invoice', namespace: 'com.acme', fields: [{ name: 'line', type: 'com.acme.Line' }, { name: 'fee', type: 'com.acme.Fee' }] };
    const moneyRef = { name: 'com.acme.common.Money', schema: avroSchema(money) };
    const schema = avroSchema(invoice, [
      { name: 'com.acme.Line', schema: avroSchema(line, [moneyRef]) },
      { name: 'com.acme.Fee', schema: avroSchema(fee, [moneyRef]) },
    ]);
    // The producer's view: each type inlined once.
    const inlined = { ...invoice, fields: [{ name: 'line', type: { ...line, fields: [line.fields[0], { name: 'price', type: money }] } }, { name: 'fee', type: fee }] };
    const payload = avro.Type.forSchema(inlined as avro.Schema, { wrapUnions: true }).toBuffer({ line: { sku: 'A', price: { units: 3, currency: 'EUR' } }, fee: { amount: { units: 1, currency: 'EUR' } } });
    expect(jsonOf(schema, payload)).toBe('{"line":{"sku":"A","price":{"units":3,"currency":"EUR"}},"fee":{"amount":{"units":1,"currency":"EUR"}}}');
  });

  it('refuses a schema that names a type no reference defines, as a DecodeError', () => {
    const schema = avroSchema({ type: 'record', name: 'Shipment', fields: [{ name: 'to', type: 'com.acme.common.Address' }] });
    expect(() => compileCodec(schema, 'confluent')).toThrow(DecodeError);
    expect(() => compileCodec(schema, 'confluent')).toThrow('the registered AVRO schema does not compile');
  });

  it('decodes a Glue payload the same way (Avro has no message index)', () => {
    const schema = avroSchema({ type: 'record', name: 'R', fields: [{ name: 's', type: 'string' }] });
    const codec = compileCodec(schema, 'glue');
    expect(codec.toJson(codec.decode(avro.Type.forSchema({ type: 'record', name: 'R', fields: [{ name: 's', type: 'string' }] }).toBuffer({ s: 'é' })))).toBe('{"s":"é"}');
  });

  it('keeps a record field and a map key named __proto__ as ordinary data, in the JSON the handler receives', () => {
    const inner = { type: 'record', name: 'Inner', fields: [{ name: '__proto__', type: 'int' }] };
    const proto = {
      type: 'record', name: 'Proto',
      fields: [
        { name: '__proto__', type: 'string' },
        { name: 'counts', type: { type: 'map', values: 'int' } },
        { name: 'nested', type: ['null', inner] },
        { name: 'byKey', type: { type: 'map', values: 'Inner' } },
      ],
    };
    // JSON.parse makes __proto__ an own property, as a producer's object would hold it.
    const datum = JSON.parse('{"__proto__":"x","counts":{"__proto__":1,"a":2},"nested":{"Inner":{"__proto__":5}},"byKey":{"__proto__":{"__proto__":6}}}');
    const payload = avro.Type.forSchema(proto as avro.Schema, { wrapUnions: true }).toBuffer(datum);
    expect(jsonOf(avroSchema(proto), payload)).toBe('{"__proto__":"x","counts":{"__proto__":1,"a":2},"nested":{"__proto__":5},"byKey":{"__proto__":{"__proto__":6}}}');
    const decoded = compileCodec(avroSchema(proto), 'confluent').decode(payload) as Record<string, unknown>;
    expect(Object.getPrototypeOf(decoded)).toBe(Object.prototype);
    expect(Object.getPrototypeOf(decoded.byKey)).toBe(Object.prototype);
  });

  it('charges the fields of every record read to maxAvroItems: records of records take no bytes either when the innermost fields are null', () => {
    // Record types L0..Ld, each with 10 fields of the next type, the deepest with 10 null fields: 10^d objects from an empty body.
    const tree = (depth: number) => {
      let t: object = { type: 'record', name: `L${depth}`, fields: Array.from({ length: 10 }, (_, i) => ({ name: `f${i}`, type: 'null' })) };
      for (let d = depth - 1; d >= 0; d--) t = { type: 'record', name: `L${d}`, fields: Array.from({ length: 10 }, (_, i) => ({ name: `f${i}`, type: i === 0 ? t : `L${d + 1}` })) };
      return t;
    };
    // Six deep: a million records (a review measured 2.7 s and 240 MB for it), refused.
    expect(() => compileCodec(avroSchema(tree(6)), 'confluent').decode(Buffer.alloc(0))).toThrow(/more than 1000000 items of arrays and maps and fields of records \(the bound maxAvroItems\)/);
    // Three deep: 1,111 records of 10 fields, read.
    const small = compileCodec(avroSchema(tree(3)), 'confluent').decode(Buffer.alloc(0)) as Record<string, Record<string, unknown>>;
    expect(Object.keys(small.f9!)).toHaveLength(10);
  });

  it('refuses more array items and map entries in one record than maxAvroItems (DESERIALIZATION_ERROR) before sizing or reading them, where 2^32-1 items of no bytes ran out of memory', () => {
    const max = INPUT_BOUNDS.maxAvroItems;
    const nulls = compileCodec(avroSchema({ type: 'array', items: 'null' }), 'confluent');
    // One block of `count` null items: the count, then the end of the array (null takes no bytes).
    const block = (count: bigint) => Buffer.concat([avroLong(count), avroLong(0n)]);
    expect(() => nulls.decode(block(BigInt(max) + 1n))).toThrow(`the record holds more than ${max} items of arrays and maps and fields of records (the bound maxAvroItems)`);
    expect(nulls.decode(block(BigInt(max)))).toHaveLength(max);
    // The budget is the record's: arrays (nested, in blocks of either sign) and maps together.
    const both = compileCodec(avroSchema({
      type: 'record', name: 'Both',
      fields: [{ name: 'a', type: { type: 'array', items: { type: 'array', items: 'null' } } }, { name: 'm', type: { type: 'map', values: 'null' } }],
    }), 'confluent');
    const inner = block(BigInt(max) / 2n - 2n); // two of these, the outer array's two items and the record's two fields: max
    const twoArrays = Buffer.concat([avroLong(-2n), avroLong(BigInt(inner.length * 2)), inner, inner, avroLong(0n)]);
    const mapOf = (entries: number) => Buffer.concat([...(entries > 0 ? [avroLong(BigInt(entries)), Buffer.alloc(entries)] : []), avroLong(0n)]); // an entry: the key "" and a null
    expect(both.decode(Buffer.concat([twoArrays, mapOf(0)]))).toEqual({ a: [expect.any(Array), expect.any(Array)], m: {} });
    expect(() => both.decode(Buffer.concat([twoArrays, mapOf(1)]))).toThrow(DecodeError);
    // 2^32-1 items declared in a few bytes, of no bytes each or of a byte each: an array is refused at its count, a map at the entry past the budget.
    const empty = compileCodec(avroSchema({ type: 'array', items: { type: 'record', name: 'Empty', fields: [] } }), 'confluent');
    expect(() => empty.decode(block(2n ** 32n - 1n))).toThrow(/maxAvroItems/);
    expect(() => nulls.decode(Buffer.concat([avroLong(-(2n ** 32n - 1n)), avroLong(0n), avroLong(0n)]))).toThrow(/maxAvroItems/);
    expect(() => compileCodec(avroSchema({ type: 'array', items: 'int' }), 'confluent').decode(block(2n ** 32n - 1n))).toThrow(/maxAvroItems/);
    expect(() => compileCodec(avroSchema({ type: 'map', values: 'null' }), 'confluent').decode(block(2n ** 32n - 1n))).toThrow(/maxAvroItems/);
    // Each record has the whole budget.
    expect(nulls.decode(block(BigInt(max)))).toHaveLength(max);
  });
});
