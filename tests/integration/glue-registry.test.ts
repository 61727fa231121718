/**
 * AWS Glue schema registry, end to end on a real AWS-compatible server (moto): a Glue registry
 * with an Avro schema of two versions, a Protobuf schema and a JSON Schema; records framed in
 * Glue's wire format and encoded by Python (fastavro, protoc's classes, json; one zlib-compressed)
 * in tests/support/glue_produce.py, produced with librdkafka; the real poller with
 * `schemaRegistry` set to the registry's ARN looks each version up with GetSchemaVersion through
 * the AWS SDK pointed at moto. Asserted: the decoded values (JSON) or the datum bytes without
 * the header (SOURCE) with valueSchemaMetadata; an unknown version, another registry's version
 * and unframed bytes in the kafka:// destination with why; a registry that cannot be reached
 * holds the partition back until it answers; offsets committed past everything, 0 lost.
 */
import { CreateRegistryCommand, CreateSchemaCommand, GlueClient, RegisterSchemaVersionCommand } from '@aws-sdk/client-glue';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSchemaRegistry } from '../../framework/config/schema-registry.ts';
import type { SchemaRegistrySpec } from '../../framework/config/types.ts';
import { FAILURE_HEADERS } from '../../framework/failure/failed-record.ts';
import { cleanupAfterAll } from '../support/cleanup.ts';
import { failurePolicy, recordsOf, startRecorder, type Harness } from '../support/harness.ts';
import { brokers, createTopic, offsets, readTopic, uniqueName, waitFor, type ReadRecord } from '../support/kafka.ts';
import { moto } from '../support/moto.ts';
import { runPythonJson } from '../support/python.ts';
import { testPort } from '../support/ports.ts';

const server = moto(testPort(28770));
const REGION = 'us-east-1';
/** moto's default account. */
const ACCOUNT = '123456789012';
const AWS_ENV = ['AWS_ENDPOINT_URL', 'AWS_ENDPOINT_URL_GLUE', 'AWS_REGION', 'AWS_ACCESS_KEY_ID', 'AWS_SECRET_ACCESS_KEY'] as const;

const ORDER_V1 = {
  type: 'record', name: 'Order', namespace: 'shop',
  fields: [
    { name: 'id', type: 'string' },
    { name: 'amount', type: 'double' },
    { name: 'sequence', type: 'long' },
    { name: 'note', type: ['null', 'string'], default: null },
  ],
};
const ORDER_V2 = { ...ORDER_V1, fields: [...ORDER_V1.fields, { name: 'currency', type: 'string', default: 'EUR' }] };
// Declared Refund first, Payment second: Glue's message index is the position by full name
// (shop.Payment 0, shop.Payment.Line 1, shop.Refund 2), not the declaration order.
const PAYMENTS_PROTO = `syntax = "proto3";
package shop;

message Refund {
  enum Reason { REASON_UNSPECIFIED = 0; DAMAGED = 1; LATE = 2; }
  string payment_id = 1;
  int64 amount_cents = 2;
  Reason reason = 3;
}

message Payment {
  message Line {
    string sku = 1;
    int32 quantity = 2;
  }
  string id = 1;
  repeated Line lines = 2;
}
`;
const CUSTOMER_SCHEMA = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: { name: { type: 'string' }, tier: { type: 'string' } },
  required: ['name', 'tier'],
  additionalProperties: false,
};
/** Beyond 2^53 and no double: Sluice must keep every digit (sent to Python as JSON digits, not a Number). */
const BIG = 2n ** 60n + 1n;

type GlueValue =
  | null
  | { raw: Buffer }
  | { format: 'avro'; schema: object; data: unknown; versionId: string; compression?: 'none' | 'zlib' }
  | { format: 'protobuf'; schema: string; message: string; data: unknown; versionId: string; compression?: 'none' | 'zlib' }
  | { format: 'json'; data: unknown; versionId: string; compression?: 'none' | 'zlib' };

interface Produced {
  offsets: Array<[number, number]>;
  /** Each value as produced (with Glue's header). */
  encoded: Array<Buffer | null>;
  /** Each framed value's bytes after the 18-byte header, uncompressed (for Protobuf: the message index, then the message). */
  payload: Array<Buffer | null>;
}

/** BigInts travel to Python as bare JSON digits. */
const BIGINT = 'bigint-digits:';
const SCRIPT = fileURLToPath(new URL('../support/glue_produce.py', import.meta.url));
const WORKDIR = mkdtempSync(join(tmpdir(), 'sluice-glue-'));

async function produceGlue(topic: string, records: Array<{ key: string | null; value: GlueValue }>): Promise<Produced> {
  const value = (v: GlueValue) =>
    v === null ? null : 'raw' in v ? { raw: v.raw.toString('base64') } : v.format === 'avro' ? { ...v, schema: JSON.stringify(v.schema) } : v;
  const input = JSON.stringify(
    {
      brokers: brokers().join(','), topic, workdir: WORKDIR,
      records: records.map((r) => ({ partition: 0, key: r.key === null ? null : Buffer.from(r.key).toString('base64'), value: value(r.value) })),
    },
    (_, v: unknown) => (typeof v === 'bigint' ? `${BIGINT}${v}` : v),
  ).replace(new RegExp(`"${BIGINT}(-?\\d+)"`, 'g'), '$1');
  const parsed = await runPythonJson<{ offsets: Array<[number, number]>; encoded: Array<string | null>; payload: Array<string | null> }>(
    SCRIPT, input, 'the Glue producer (tests/support/glue_produce.py)',
  );
  const bytes = (b: string | null) => (b === null ? null : Buffer.from(b, 'base64'));
  return { offsets: parsed.offsets, encoded: parsed.encoded.map(bytes), payload: parsed.payload.map(bytes) };
}

/** A TCP hop in front of moto that refuses every connection until `up`: the registry unreachable, its state kept. */
interface Hop {
  url: string;
  up: boolean;
  close(): Promise<void>;
}

async function switchableHop(port: number): Promise<Hop> {
  const sockets = new Set<Socket>();
  let up = false;
  const server: Server = createServer((client) => {
    if (!up) return void client.destroy();
    const upstream = connect(port, '127.0.0.1');
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      // A reset on either side ends both (below); the SDK sees it and retries.
      s.on('error', () => s.destroy());
    }
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    get up() {
      return up;
    },
    set up(v: boolean) {
      up = v;
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

interface SeenRecord {
  offset: number;
  key: string | null;
  value: string | null;
  valueSchemaMetadata?: { dataFormat: string; schemaId: string };
}

describe('Glue schema registry on moto', () => {
  const { topics, harnesses } = cleanupAfterAll();
  const savedEnv = Object.fromEntries(AWS_ENV.map((k) => [k, process.env[k]]));
  let glue: GlueClient;
  let registryArn: string;
  const versions = { orderV1: '', orderV2: '', payments: '', customer: '', otherRegistry: '', unknown: randomUUID() };
  let topic: string;
  let produced: Produced;
  /** Offsets the registry must decode (invoked), and the ones that must land in the destination with their reason. */
  const DECODED = [0, 1, 2, 3, 4, 8, 9];
  const REFUSED: Record<number, string> = { 5: 'SCHEMA_NOT_FOUND', 6: 'SCHEMA_NOT_FOUND', 7: 'DESERIALIZATION_ERROR', 10: 'DESERIALIZATION_ERROR' };
  const COUNT = 11;

  beforeAll(async () => {
    await server.start();
    Object.assign(process.env, { AWS_ENDPOINT_URL: server.endpoint, AWS_REGION: REGION, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
    delete process.env.AWS_ENDPOINT_URL_GLUE;
    glue = new GlueClient({ endpoint: server.endpoint, region: REGION, credentials: { accessKeyId: 'test', secretAccessKey: 'test' } });

    const registryName = uniqueName('shop');
    const registry = await glue.send(new CreateRegistryCommand({ RegistryName: registryName }));
    registryArn = registry.RegistryArn!;
    expect(registryArn).toBe(`arn:aws:glue:${REGION}:${ACCOUNT}:registry/${registryName}`);
    const RegistryId = { RegistryName: registryName };
    // moto refuses a schema without Compatibility (AWS defaults it to BACKWARD).
    const order = await glue.send(new CreateSchemaCommand({ RegistryId, SchemaName: 'order', DataFormat: 'AVRO', Compatibility: 'BACKWARD', SchemaDefinition: JSON.stringify(ORDER_V1) }));
    versions.orderV1 = order.SchemaVersionId!;
    versions.orderV2 = (await glue.send(new RegisterSchemaVersionCommand({ SchemaId: { SchemaArn: order.SchemaArn! }, SchemaDefinition: JSON.stringify(ORDER_V2) }))).SchemaVersionId!;
    versions.payments = (await glue.send(new CreateSchemaCommand({ RegistryId, SchemaName: 'payments', DataFormat: 'PROTOBUF', Compatibility: 'BACKWARD', SchemaDefinition: PAYMENTS_PROTO }))).SchemaVersionId!;
    versions.customer = (await glue.send(new CreateSchemaCommand({ RegistryId, SchemaName: 'customer', DataFormat: 'JSON', Compatibility: 'NONE', SchemaDefinition: JSON.stringify(CUSTOMER_SCHEMA) }))).SchemaVersionId!;
    const other = uniqueName('other');
    await glue.send(new CreateRegistryCommand({ RegistryName: other }));
    versions.otherRegistry = (await glue.send(new CreateSchemaCommand({ RegistryId: { RegistryName: other }, SchemaName: 'order', DataFormat: 'AVRO', Compatibility: 'BACKWARD', SchemaDefinition: JSON.stringify(ORDER_V1) }))).SchemaVersionId!;
    expect(new Set(Object.values(versions)).size).toBe(6);

    topic = uniqueName('glue');
    topics.push(topic);
    await createTopic(topic, 1);
    const avro = (versionId: string, data: unknown, compression: 'none' | 'zlib' = 'none', schema: object = ORDER_V1): GlueValue => ({ format: 'avro', schema, data, versionId, compression });
    produced = await produceGlue(topic, [
      /* 0 */ { key: 'k0', value: avro(versions.orderV1, { id: 'o-1', amount: 12.5, sequence: BIG, note: null }) },
      /* 1 */ { key: 'k1', value: avro(versions.orderV2, { id: 'o-2', amount: 3.25, sequence: 7, note: 'gift', currency: 'USD' }, 'zlib', ORDER_V2) },
      /* 2 */ { key: 'k2', value: { format: 'protobuf', schema: PAYMENTS_PROTO, message: 'shop.Refund', data: { paymentId: 'p-1', amountCents: '1250', reason: 'DAMAGED' }, versionId: versions.payments } },
      /* 3 */ { key: 'k3', value: { format: 'protobuf', schema: PAYMENTS_PROTO, message: 'shop.Payment', data: { id: 'p-2', lines: [{ sku: 'a', quantity: 2 }, { sku: 'b', quantity: 1 }] }, versionId: versions.payments } },
      /* 4 */ { key: 'k4', value: { format: 'json', data: { name: 'Ada', tier: 'gold' }, versionId: versions.customer } },
      /* 5 */ { key: 'k5', value: avro(versions.unknown, { id: 'o-x', amount: 1, sequence: 1, note: null }) },
      /* 6 */ { key: 'k6', value: avro(versions.otherRegistry, { id: 'o-y', amount: 1, sequence: 1, note: null }) },
      /* 7 */ { key: 'k7', value: { raw: Buffer.from('not framed by a Glue serializer') } },
      /* 8 */ { key: 'k8', value: avro(versions.orderV1, { id: 'o-3', amount: 0.5, sequence: 3, note: 'last' }) },
      /* 9 */ { key: 'k9', value: null },
      /* 10 */ { key: 'k10', value: { format: 'json', data: { name: 'Bob', tier: 42 }, versionId: versions.customer } },
    ]);
    expect(produced.offsets).toEqual(Array.from({ length: COUNT }, (_, i) => [0, i]));
    // The frame as written: header version 3, compression 0 (5 for the zlib record), the version UUID.
    expect([...produced.encoded[0]!.subarray(0, 2)]).toEqual([3, 0]);
    expect([...produced.encoded[1]!.subarray(0, 2)]).toEqual([3, 5]);
    expect(produced.encoded[0]!.subarray(2, 18).toString('hex')).toBe(versions.orderV1.replaceAll('-', ''));
    // Glue's Protobuf message index: shop.Refund is 2 and shop.Payment 0 (sorted by full name).
    expect([produced.payload[2]![0], produced.payload[3]![0]]).toEqual([2, 0]);
  });

  afterAll(async () => {
    glue?.destroy();
    await server.stop();
    for (const k of AWS_ENV) {
      if (savedEnv[k] === undefined) delete process.env[k];
      else process.env[k] = savedEnv[k];
    }
  });

  const spec = (eventRecordFormat: 'JSON' | 'SOURCE'): SchemaRegistrySpec => {
    const { spec: s, problems } = buildSchemaRegistry({ schemaRegistryUri: registryArn, eventRecordFormat, schemaValidationConfigs: [{ attribute: 'VALUE' }] }, 'functions.recorder.events[0].sluice');
    expect(problems).toEqual([]);
    expect(s.glue).toEqual({ partition: 'aws', region: REGION, accountId: ACCOUNT, registryName: registryArn.split('/')[1] });
    return s;
  };

  /** Runs the poller over the topic with a fresh group and destination; resolves once it committed past every record. */
  const run = async (format: 'JSON' | 'SOURCE', before?: (h: Harness) => Promise<void>) => {
    const failed = uniqueName('glue-failed');
    topics.push(failed);
    await createTopic(failed, 1);
    const h = await startRecorder({
      topic, schemaRegistry: spec(format), failure: failurePolicy({ maximumRetryAttempts: 0, onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }),
    });
    harnesses.push(h);
    await before?.(h);
    await waitFor('committed past every record', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === COUNT, 90_000);
    const dead = await readTopic(failed, Object.keys(REFUSED).length);
    const seen = h.seen().flatMap(recordsOf) as unknown as SeenRecord[];
    return { h, seen, dead };
  };

  const checkDestination = (dead: ReadRecord[], seen: SeenRecord[]) => {
    const byOffset = new Map(dead.map((d) => [Number(d.headers[FAILURE_HEADERS.offset]!.toString()), d]));
    expect([...byOffset.keys()].sort((a, b) => a - b)).toEqual(Object.keys(REFUSED).map(Number));
    for (const [offset, reason] of Object.entries(REFUSED)) {
      const d = byOffset.get(Number(offset))!;
      expect(d.headers[FAILURE_HEADERS.reason]!.toString()).toBe(reason);
      expect(d.headers[FAILURE_HEADERS.attempts]!.toString()).toBe('0');
      expect(d.headers[FAILURE_HEADERS.topic]!.toString()).toBe(topic);
      // What the destination holds is the record as read: Glue's header and all.
      expect(d.value!.equals(produced.encoded[Number(offset)]!)).toBe(true);
      expect(d.key!.toString()).toBe(`k${offset}`);
    }
    expect(byOffset.get(5)!.headers[FAILURE_HEADERS.error]!.toString()).toContain(versions.unknown);
    expect(byOffset.get(6)!.headers[FAILURE_HEADERS.error]!.toString()).toContain('a schema of another registry');
    // Nothing lost, nothing twice: every offset invoked once or in the destination, never both.
    const invoked = seen.map((r) => r.offset);
    expect(invoked).toEqual(DECODED);
    expect([...invoked, ...byOffset.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: COUNT }, (_, i) => i));
  };

  const byOffset = (seen: SeenRecord[]) => new Map(seen.map((r) => [r.offset, r]));
  const meta = (dataFormat: string, schemaId: string) => ({ dataFormat, schemaId });

  it('JSON: the handler gets each value decoded, as JSON text, with valueSchemaMetadata { dataFormat, schemaId: the version UUID }', async () => {
    const { seen, dead } = await run('JSON');
    const r = byOffset(seen);
    const text = (o: number) => Buffer.from(r.get(o)!.value!, 'base64').toString();
    const json = (o: number) => JSON.parse(text(o)) as unknown;

    expect(json(0)).toEqual({ id: 'o-1', amount: 12.5, sequence: Number(BIG), note: null });
    expect(text(0)).toContain(`"sequence":${BIG}`); // every digit, not 1152921504606847000
    expect(json(1)).toEqual({ id: 'o-2', amount: 3.25, sequence: 7, note: 'gift', currency: 'USD' });
    expect(json(2)).toEqual({ paymentId: 'p-1', amountCents: '1250', reason: 'DAMAGED' });
    expect(json(3)).toEqual({ id: 'p-2', lines: [{ sku: 'a', quantity: 2 }, { sku: 'b', quantity: 1 }] });
    expect(r.get(4)!.value).toBe(produced.payload[4]!.toString('base64')); // JSON Schema: the producer's own text
    expect(json(8)).toEqual({ id: 'o-3', amount: 0.5, sequence: 3, note: 'last' });
    expect(r.get(9)!.value).toBeNull();
    expect(r.get(9)!.valueSchemaMetadata).toBeUndefined();

    expect(r.get(0)!.valueSchemaMetadata).toEqual(meta('AVRO', versions.orderV1));
    expect(r.get(1)!.valueSchemaMetadata).toEqual(meta('AVRO', versions.orderV2));
    expect(r.get(2)!.valueSchemaMetadata).toEqual(meta('PROTOBUF', versions.payments));
    expect(r.get(3)!.valueSchemaMetadata).toEqual(meta('PROTOBUF', versions.payments));
    expect(r.get(4)!.valueSchemaMetadata).toEqual(meta('JSON', versions.customer));
    expect(r.get(8)!.valueSchemaMetadata).toEqual(meta('AVRO', versions.orderV1));
    expect(Buffer.from(r.get(0)!.key!, 'base64').toString()).toBe('k0'); // only VALUE is decoded
    checkDestination(dead, seen);
  });

  it('SOURCE: the handler gets the bytes after the 18-byte header, byte-exact (the zlib payload inflated), with the same metadata', async () => {
    const { seen, dead } = await run('SOURCE');
    const r = byOffset(seen);
    for (const o of [0, 1, 2, 3, 4, 8]) {
      expect(Buffer.from(r.get(o)!.value!, 'base64').equals(produced.payload[o]!), `offset ${o}`).toBe(true);
    }
    // Uncompressed records: exactly what followed the header on the wire.
    expect(produced.encoded[0]!.subarray(18).equals(produced.payload[0]!)).toBe(true);
    expect(r.get(0)!.valueSchemaMetadata).toEqual(meta('AVRO', versions.orderV1));
    expect(r.get(1)!.valueSchemaMetadata).toEqual(meta('AVRO', versions.orderV2));
    expect(r.get(2)!.valueSchemaMetadata).toEqual(meta('PROTOBUF', versions.payments));
    expect(r.get(4)!.valueSchemaMetadata).toEqual(meta('JSON', versions.customer));
    expect(r.get(9)!.value).toBeNull();
    checkDestination(dead, seen);
  });

  it('a registry that cannot be reached holds the partition back, nothing skipped; once it answers, the same outcome', async () => {
    const hop = await switchableHop(Number(new URL(server.endpoint).port));
    process.env.AWS_ENDPOINT_URL_GLUE = hop.url;
    try {
      let waits = 0;
      const { h, seen, dead } = await run('JSON', async (h) => {
        h.events.on('poller.registry_unavailable', () => waits++);
        await waitFor('the partition waiting on the registry three times', () => waits >= 3, 60_000);
        expect(h.seen()).toEqual([]);
        expect((await offsets(h.trigger.consumerGroupId, topic))[0]!.committed).toBe(-1);
        hop.up = true;
      });
      console.log(`[glue-unreachable] waited ${waits} times before the registry answered`);
      expect(new Set(seen.map((s) => s.offset))).toEqual(new Set(DECODED));
      checkDestination(dead, seen);
      await h.stop();
      harnesses.splice(harnesses.indexOf(h), 1);
    } finally {
      delete process.env.AWS_ENDPOINT_URL_GLUE;
      await hop.close();
    }
  });
});
