import { randomUUID } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import avro from 'avsc';
import protobuf from 'protobufjs';
import { describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { RecordDecoder, type DecoderOptions } from './decoder.ts';
import { RegistryUnavailableError, SchemaNotFoundError, type RegisteredSchema, type SchemaRegistry } from './registry.ts';
import type { RegistryKind } from './wire.ts';

const ORDER_AVRO = { type: 'record', name: 'Order', fields: [{ name: 'id', type: 'string' }, { name: 'qty', type: 'int' }] };
const orderType = avro.Type.forSchema(ORDER_AVRO as avro.Schema);
const KEY_AVRO = { type: 'record', name: 'Key', fields: [{ name: 'tenant', type: 'string' }] };
const keyType = avro.Type.forSchema(KEY_AVRO as avro.Schema);
const PROTO = 'syntax = "proto3";\npackage acme;\nmessage Header { string source = 1; }\nmessage Order { string order_id = 1; int32 qty = 2; }\n';
const protoOrder = protobuf.parse(PROTO, { keepCase: true }).root.lookupType('acme.Order');
const JSON_SCHEMA = { type: 'object', properties: { id: { type: 'string' } }, required: ['id'] };

const SCHEMAS: Record<string, RegisteredSchema> = {
  '7': { format: 'AVRO', definition: JSON.stringify(ORDER_AVRO), references: [] },
  '8': { format: 'AVRO', definition: JSON.stringify(KEY_AVRO), references: [] },
  '9': { format: 'PROTOBUF', definition: PROTO, references: [] },
  '11': { format: 'JSON', definition: JSON.stringify(JSON_SCHEMA), references: [] },
  '12': { format: 'AVRO', definition: '{"type": "record", "name": "Broken", "fields": [{"name": "x", "type": "nope"}]}', references: [] },
};

/** A registry in memory: the schemas above by id; `down` makes it not answer; `lookups` counts the questions. */
function memoryRegistry(kind: RegistryKind, schemas: Record<string, RegisteredSchema> = SCHEMAS) {
  const registry = {
    uri: 'http://registry.test:8081',
    kind,
    down: false,
    lookups: [] as string[],
    async lookup(schemaId: string): Promise<RegisteredSchema> {
      registry.lookups.push(schemaId);
      if (registry.down) throw new RegistryUnavailableError(registry.uri, 'connect ECONNREFUSED');
      const schema = schemas[schemaId];
      if (!schema) throw new SchemaNotFoundError(schemaId, registry.uri, 'HTTP 404, error 40403: Schema not found');
      return schema;
    },
  } satisfies SchemaRegistry & Record<string, unknown>;
  return registry;
}

const confluent = (id: number, payload: Buffer) => {
  const header = Buffer.alloc(5);
  header.writeInt32BE(id, 1);
  return Buffer.concat([header, payload]);
};
const glue = (uuid: string, payload: Buffer, compression: 0 | 5 = 0) => Buffer.concat([Buffer.from([3, compression]), Buffer.from(uuid.replace(/-/g, ''), 'hex'), payload]);
const record = (offset: number, value: Buffer | null, key: Buffer | null = null): KafkaRecord => ({
  topic: 'orders', partition: 0, offset, timestamp: 1_700_000_000_000, timestampType: 'CREATE_TIME', key, value, headers: [['h', Buffer.from('1')]],
});
const decoder = (registry: SchemaRegistry, o: Partial<Omit<DecoderOptions, 'registry'>> = {}) =>
  new RecordDecoder({ registry, format: 'JSON', key: false, value: true, filters: false, ...o });
const ok = (d: Awaited<ReturnType<RecordDecoder['decode']>>[number]) => {
  if (!d.ok) throw new Error(`expected a decoded record, got ${d.reason}: ${d.error}`);
  return d.record;
};

const avroValue = confluent(7, orderType.toBuffer({ id: 'o-1', qty: 2 }));

describe('RecordDecoder: JSON format', () => {
  it('delivers the value as JSON text with its schema metadata, and keeps the bytes as read', async () => {
    const key = Buffer.from('plain-key');
    const [d] = await decoder(memoryRegistry('confluent')).decode([record(5, avroValue, key)]);
    const r = ok(d!);
    expect(r.value!.toString()).toBe('{"id":"o-1","qty":2}');
    expect(r.valueSchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: '7' });
    expect(r.received).toEqual({ key, value: avroValue });
    // Not configured for KEY: the key is delivered as it is, with no metadata.
    expect(r.key).toEqual(key);
    expect(r.keySchemaMetadata).toBeUndefined();
    expect(r.filterValue).toBeUndefined();
    expect({ offset: r.offset, headers: r.headers, topic: r.topic }).toEqual({ offset: 5, headers: [['h', Buffer.from('1')]], topic: 'orders' });
  });

  it('renders each format as JSON text: Protobuf by its message indexes, JSON Schema as the producer wrote it', async () => {
    const proto = confluent(9, Buffer.concat([Buffer.from([0x02, 0x02]), Buffer.from(protoOrder.encode({ order_id: 'p-1', qty: 3 }).finish())]));
    const json = confluent(11, Buffer.from('{ "id" : "j-1" }'));
    const [p, j] = (await decoder(memoryRegistry('confluent'), { filters: true }).decode([record(0, proto), record(1, json)])).map(ok);
    expect(p!.value!.toString()).toBe('{"orderId":"p-1","qty":3}');
    expect(p!.valueSchemaMetadata).toEqual({ dataFormat: 'PROTOBUF', schemaId: '9' });
    expect(j!.value!.toString()).toBe('{ "id" : "j-1" }');
    expect(j!.valueSchemaMetadata).toEqual({ dataFormat: 'JSON', schemaId: '11' });
    // The value is already the JSON text the filters read.
    expect(p!.filterValue).toBeUndefined();
  });

  it('decodes the key only when KEY is configured, with its own metadata', async () => {
    const key = confluent(8, keyType.toBuffer({ tenant: 't-1' }));
    const both = ok((await decoder(memoryRegistry('confluent'), { key: true }).decode([record(0, avroValue, key)]))[0]!);
    expect(both.key!.toString()).toBe('{"tenant":"t-1"}');
    expect(both.keySchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: '8' });
    expect(both.valueSchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: '7' });
    expect(both.received).toEqual({ key, value: avroValue });

    const keyOnly = ok((await decoder(memoryRegistry('confluent'), { key: true, value: false }).decode([record(0, avroValue, key)]))[0]!);
    expect(keyOnly.key!.toString()).toBe('{"tenant":"t-1"}');
    expect(keyOnly.value).toEqual(avroValue);
    expect(keyOnly.valueSchemaMetadata).toBeUndefined();
  });

  it('passes a null key and a tombstone through untouched, without metadata', async () => {
    const registry = memoryRegistry('confluent');
    const tombstone = record(3, null, null);
    const [d] = await decoder(registry, { key: true }).decode([tombstone]);
    expect(d).toEqual({ ok: true, record: tombstone });
    expect(ok(d!).received).toBeUndefined();
    expect(registry.lookups).toEqual([]);

    const key = confluent(8, keyType.toBuffer({ tenant: 't' }));
    const keyed = ok((await decoder(registry, { key: true }).decode([record(4, null, key)]))[0]!);
    expect(keyed.value).toBeNull();
    expect(keyed.valueSchemaMetadata).toBeUndefined();
    expect(keyed.keySchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: '8' });
    expect(keyed.received).toEqual({ key, value: null });
  });
});

describe('RecordDecoder: SOURCE format', () => {
  it('delivers the payload without the 5-byte header; a Confluent Protobuf payload keeps its message indexes', async () => {
    const avroPayload = orderType.toBuffer({ id: 'o-2', qty: 1 });
    const protoPayload = Buffer.concat([Buffer.from([0x02, 0x02]), Buffer.from(protoOrder.encode({ order_id: 'p-2' }).finish())]);
    const protoValue = confluent(9, protoPayload);
    const [a, p] = (await decoder(memoryRegistry('confluent'), { format: 'SOURCE' }).decode([record(0, confluent(7, avroPayload)), record(1, protoValue)])).map(ok);
    expect(a!.value).toEqual(avroPayload);
    expect(a!.valueSchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: '7' });
    expect(p!.value).toEqual(protoPayload);
    expect(p!.received).toEqual({ key: null, value: protoValue });
    expect(a!.filterValue).toBeUndefined();
    expect(p!.filterValue).toBeUndefined();
  });

  it('keeps the decoded value as JSON text for the filters when the trigger filters', async () => {
    const [r] = (await decoder(memoryRegistry('confluent'), { format: 'SOURCE', filters: true }).decode([record(0, avroValue)])).map(ok);
    expect(r!.value).toEqual(avroValue.subarray(5));
    expect(r!.filterValue!.toString()).toBe('{"id":"o-1","qty":2}');
  });

  it('delivers a Glue payload without its 18-byte header, inflated when compressed', async () => {
    const uuid = randomUUID();
    const payload = orderType.toBuffer({ id: 'g-1', qty: 9 });
    const registry = memoryRegistry('glue', { [uuid]: SCHEMAS['7']! });
    const [plain, zipped] = (await decoder(registry, { format: 'SOURCE' }).decode([record(0, glue(uuid, payload)), record(1, glue(uuid, deflateSync(payload), 5))])).map(ok);
    expect(plain!.value).toEqual(payload);
    expect(zipped!.value).toEqual(payload);
    expect(zipped!.valueSchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: uuid });
  });
});

describe('RecordDecoder: Glue', () => {
  it('decodes a zlib-compressed payload and names the schema version UUID', async () => {
    const uuid = randomUUID();
    const value = glue(uuid, deflateSync(orderType.toBuffer({ id: 'z-1', qty: 4 })), 5);
    const [r] = (await decoder(memoryRegistry('glue', { [uuid]: SCHEMAS['7']! })).decode([record(0, value)])).map(ok);
    expect(r!.value!.toString()).toBe('{"id":"z-1","qty":4}');
    expect(r!.valueSchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: uuid });
    expect(r!.received!.value).toEqual(value);
  });

  it('refuses a compressed payload that does not inflate', async () => {
    const uuid = randomUUID();
    const [d] = await decoder(memoryRegistry('glue', { [uuid]: SCHEMAS['7']! })).decode([record(0, glue(uuid, Buffer.from('not zlib'), 5))]);
    expect(d).toMatchObject({ ok: false, reason: 'DESERIALIZATION_ERROR' });
    expect(d!.ok === false && d!.error).toContain("the record's value: the zlib-compressed payload does not inflate");
  });
});

describe('RecordDecoder: Glue compression bounds', () => {
  it('refuses a record that inflates past Lambda payload limit, off the event loop, and decodes the rest of the batch', async () => {
    const uuid = randomUUID();
    const bomb = glue(uuid, deflateSync(Buffer.alloc(64 * 1024 * 1024)), 5); // 64 MB in 64 KB
    const fine = glue(uuid, deflateSync(orderType.toBuffer({ id: 'ok', qty: 1 })), 5);
    const out = await decoder(memoryRegistry('glue', { [uuid]: SCHEMAS['7']! })).decode([record(0, bomb), record(1, fine)]);
    expect(out[0]).toMatchObject({ ok: false, reason: 'DESERIALIZATION_ERROR', error: expect.stringMatching(/inflates to more than 6291456 bytes, Lambda's payload limit/) });
    expect(out[1]).toMatchObject({ ok: true });
  });

  it("ends the batch before the record that would take it past maxDecompressedBytes: honest records are fetched again, never failed", async () => {
    const uuid = randomUUID();
    const five = glue(uuid, deflateSync(Buffer.alloc(5 * 1024 * 1024)), 5); // under the record bound; 7 of them pass 32 MiB
    const out = await decoder(memoryRegistry('glue', { [uuid]: SCHEMAS['7']! })).decode(Array.from({ length: 8 }, (_, i) => record(i, five)));
    expect(out.map((d) => d.record.offset)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(out.filter((d) => !d.ok && /maxDecompressedBytes/.test(d.error))).toEqual([]);
  });
});

describe('RecordDecoder: failures', () => {
  it('says SCHEMA_NOT_FOUND for an id the registry does not have, and keeps the record as read', async () => {
    const value = confluent(99, orderType.toBuffer({ id: 'x', qty: 1 }));
    const original = record(0, value);
    const [d] = await decoder(memoryRegistry('confluent')).decode([original]);
    expect(d).toEqual({ ok: false, record: original, reason: 'SCHEMA_NOT_FOUND', error: expect.stringContaining("the record's value: schema 99 is not in the registry http://registry.test:8081") });
  });

  it('says DESERIALIZATION_ERROR for a frame the registry does not write, bytes that do not decode, or a schema that does not compile', async () => {
    const records = [
      record(0, Buffer.from('{"id":"plain json"}')),
      record(1, confluent(7, Buffer.from([0x02]))),
      record(2, confluent(11, Buffer.from('{"no":"id"}'))),
      record(3, confluent(12, Buffer.from([0]))),
      record(4, avroValue),
    ];
    const out = await decoder(memoryRegistry('confluent')).decode(records);
    expect(out.map((d) => (d.ok ? 'ok' : d.reason))).toEqual(['DESERIALIZATION_ERROR', 'DESERIALIZATION_ERROR', 'DESERIALIZATION_ERROR', 'DESERIALIZATION_ERROR', 'ok']);
    const errors = out.map((d) => (d.ok ? '' : d.error));
    expect(errors[0]).toContain("the record's value: the first byte is 123, not the Confluent wire format's magic byte 0");
    expect(errors[1]).toMatch(/^the record's value: the bytes are not Avro of the registered schema: .* \(schema 7\)$/);
    expect(errors[2]).toContain("must have required property 'id' (schema 11)");
    expect(errors[3]).toContain('the registered AVRO schema does not compile');
    expect(out.map((d) => d.record.offset)).toEqual([0, 1, 2, 3, 4]);
    expect(out[0]!.record).toBe(records[0]);
  });

  it('fails the whole record on its key, naming the key', async () => {
    const [d] = await decoder(memoryRegistry('confluent'), { key: true }).decode([record(0, avroValue, Buffer.from('k'))]);
    expect(d).toMatchObject({ ok: false, reason: 'DESERIALIZATION_ERROR', error: expect.stringContaining("the record's key: 1 bytes are too short") });
  });

  it('rejects with RegistryUnavailableError when the registry does not answer, and asks again next time', async () => {
    const registry = memoryRegistry('confluent');
    registry.down = true;
    const d = decoder(registry);
    await expect(d.decode([record(0, avroValue)])).rejects.toBeInstanceOf(RegistryUnavailableError);
    registry.down = false;
    expect((await d.decode([record(0, avroValue)])).map((x) => x.ok)).toEqual([true]);
    expect(registry.lookups).toEqual(['7', '7']);
  });
});

describe('RecordDecoder: schema lookups', () => {
  it('asks the registry once per schema id, across records, attributes and calls', async () => {
    const registry = memoryRegistry('confluent');
    const d = decoder(registry, { key: true });
    const key = confluent(7, orderType.toBuffer({ id: 'k', qty: 0 }));
    await d.decode([record(0, avroValue, key), record(1, avroValue)]);
    await d.decode([record(2, confluent(11, Buffer.from('{"id":"j"}'))), record(3, avroValue)]);
    expect(registry.lookups).toEqual(['7', '11']);
  });

  it('asks again for an id the registry did not have (it may be registered since)', async () => {
    const schemas: Record<string, RegisteredSchema> = {};
    const registry = memoryRegistry('confluent', schemas);
    const d = decoder(registry);
    expect((await d.decode([record(0, avroValue)]))[0]).toMatchObject({ ok: false, reason: 'SCHEMA_NOT_FOUND' });
    schemas['7'] = SCHEMAS['7']!;
    expect((await d.decode([record(0, avroValue)]))[0]!.ok).toBe(true);
    expect(registry.lookups).toEqual(['7', '7']);
  });

  it('asks once per batch for an id the registry does not have, however many records name it, and never again for a schema that does not compile', async () => {
    const registry = memoryRegistry('confluent');
    const d = decoder(registry);
    const unknown = confluent(404, Buffer.from([2, 0x78]));
    const broken = confluent(12, Buffer.from([0]));
    const batch = Array.from({ length: 1_200 }, (_, i) => record(i, i % 2 ? unknown : broken));
    const first = await d.decode(batch);
    expect(first.filter((r) => !r.ok && r.reason === 'SCHEMA_NOT_FOUND')).toHaveLength(600);
    expect(first.filter((r) => !r.ok && r.reason === 'DESERIALIZATION_ERROR')).toHaveLength(600);
    await d.decode(batch);
    expect(registry.lookups.sort()).toEqual(['12', '404', '404']);
  });

  it('makes a record that breaks a codec in an unforeseen way its own DESERIALIZATION_ERROR, not the batch\'s', async () => {
    const registry = memoryRegistry('confluent');
    const d = decoder(registry);
    const [good] = await d.decode([record(0, avroValue)]);
    expect(good!.ok).toBe(true);
    const codec = (d as unknown as { compiled: Map<string, { codec: { decode: () => unknown } }> }).compiled.get('7')!.codec;
    codec.decode = () => {
      throw new TypeError('something no codec should throw');
    };
    const out = await d.decode([record(1, avroValue)]);
    expect(out[0]).toMatchObject({ ok: false, reason: 'DESERIALIZATION_ERROR' });
    expect(out[0]!.ok ? '' : out[0]!.error).toMatch(/something no codec should throw/);
  });
});
