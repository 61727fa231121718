/**
 * Avro (with an Avro key), Protobuf (two message types, one nested) and JSON Schema records,
 * encoded by Confluent's own serializers against the real registry, through the real poller:
 * in the JSON format the handler sees the decoded objects, in SOURCE the bytes without the
 * registry's header (byte for byte what the independent encoder wrote after it), and both with
 * AWS's schema metadata.
 */
import type { SelfManagedKafkaRecord } from 'aws-lambda';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { SchemaRegistrySpec } from '../../../framework/config/types.ts';
import { recordsOf, startRecorder, type Harness } from '../../support/harness.ts';
import { createTopic, deleteTopic, offsets, uniqueName, waitFor } from '../../support/kafka.ts';
import { produceWithRegistry, type Produced } from '../../support/registry-producer.ts';
import { avroRecords, jsonRecords, order, protobufRecords } from './schemas.ts';

const N = 30;
type Format = 'JSON' | 'SOURCE';
type Attribute = SelfManagedKafkaRecord & { keySchemaMetadata?: unknown; valueSchemaMetadata?: unknown };

const registrySpec = (format: Format, key = false): SchemaRegistrySpec => ({ uri: inject('schemaRegistryUrl'), format, key, value: true, access: {} });
const idOf = (framed: Buffer) => String(framed.readInt32BE(1));
const fromBase64 = (s: string | null) => (s === null ? null : Buffer.from(s, 'base64'));

async function drain(topic: string, format: Format, key = false): Promise<Attribute[]> {
  let harness: Harness | undefined;
  try {
    harness = await startRecorder({ topic, schemaRegistry: registrySpec(format, key) });
    const h = harness;
    await waitFor(`${N} records of ${topic} in ${format}`, () => h.seen().flatMap(recordsOf).length >= N);
    await waitFor('the offsets committed to the end', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === N);
    return h.seen().flatMap(recordsOf) as Attribute[];
  } finally {
    await harness?.stop();
  }
}

describe('schema registry: what the handler receives', () => {
  const topics = { avro: uniqueName('sr-avro'), protobuf: uniqueName('sr-proto'), json: uniqueName('sr-json') };
  const produced: Record<keyof typeof topics, Produced> = {} as never;

  beforeAll(async () => {
    for (const t of Object.values(topics)) await createTopic(t, 1);
    const registry = inject('schemaRegistryUrl');
    produced.avro = await produceWithRegistry(registry, topics.avro, avroRecords(N));
    produced.protobuf = await produceWithRegistry(registry, topics.protobuf, protobufRecords(N));
    produced.json = await produceWithRegistry(registry, topics.json, jsonRecords(N));
  });
  afterAll(async () => {
    for (const t of Object.values(topics)) await deleteTopic(t);
  });

  it('Avro in the JSON format: the decoded value and key as JSON text, with their schema ids', async () => {
    const seen = await drain(topics.avro, 'JSON', true);
    expect(seen.map((r) => r.offset)).toEqual([...Array(N).keys()]);
    seen.forEach((r, i) => {
      const { key, value } = produced.avro.encoded[i]!;
      expect(JSON.parse(fromBase64(r.value)!.toString())).toEqual(order(i));
      expect(JSON.parse(fromBase64(r.key)!.toString())).toEqual({ id: 1_000 + i });
      expect(r.valueSchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: idOf(value!) });
      expect(r.keySchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: idOf(key!) });
    });
    expect(idOf(produced.avro.encoded[0]!.key!)).not.toEqual(idOf(produced.avro.encoded[0]!.value!));
  });

  it('Avro in the SOURCE format: the Avro bytes after the 5-byte header, byte for byte; the key undecoded when only VALUE is set', async () => {
    const seen = await drain(topics.avro, 'SOURCE');
    seen.forEach((r, i) => {
      const { key, value } = produced.avro.encoded[i]!;
      expect(fromBase64(r.value)!.equals(value!.subarray(5))).toBe(true);
      expect(fromBase64(r.key)!.equals(key!)).toBe(true);
      expect(r.valueSchemaMetadata).toEqual({ dataFormat: 'AVRO', schemaId: idOf(value!) });
      expect(r).not.toHaveProperty('keySchemaMetadata');
    });
  });

  it('Protobuf in the JSON format: the message its indexes name, in proto3 JSON (camelCase, 64-bit integers as strings, enums by name)', async () => {
    const seen = await drain(topics.protobuf, 'JSON');
    const input = protobufRecords(N);
    seen.forEach((r, i) => {
      const value = input[i]!.value as { data: unknown };
      expect(JSON.parse(fromBase64(r.value)!.toString())).toEqual(value.data);
      expect(r.valueSchemaMetadata).toEqual({ dataFormat: 'PROTOBUF', schemaId: idOf(produced.protobuf.encoded[i]!.value!) });
    });
    // Confluent's message indexes as the encoder wrote them: [1] is written 02 02, [1, 0] is 04 02 00.
    expect(produced.protobuf.encoded[0]!.value!.subarray(5, 7)).toEqual(Buffer.from([0x02, 0x02]));
    expect(produced.protobuf.encoded[2]!.value!.subarray(5, 8)).toEqual(Buffer.from([0x04, 0x02, 0x00]));
  });

  it('Protobuf in the SOURCE format: the message indexes and the message, without the 5-byte header', async () => {
    const seen = await drain(topics.protobuf, 'SOURCE');
    seen.forEach((r, i) => expect(fromBase64(r.value)!.equals(produced.protobuf.encoded[i]!.value!.subarray(5))).toBe(true));
  });

  it('JSON Schema in both formats: the producer\'s JSON text, byte for byte, validated against the schema', async () => {
    for (const format of ['JSON', 'SOURCE'] as const) {
      const seen = await drain(topics.json, format);
      seen.forEach((r, i) => {
        const { value } = produced.json.encoded[i]!;
        expect(fromBase64(r.value)!.equals(value!.subarray(5))).toBe(true);
        expect(r.valueSchemaMetadata).toEqual({ dataFormat: 'JSON', schemaId: idOf(value!) });
      });
    }
  });
});
