/**
 * Powertools for AWS Lambda's Kafka utility (`kafkaConsumer`), in a handler written for AWS and
 * left as it is (tests/fixtures/functions/powertools.ts), decodes Sluice's events as it decodes
 * AWS's: Avro and Protobuf in the SOURCE format (its deserializers expect the bytes without
 * the registry's header, and read valueSchemaMetadata for Protobuf's message indexes), and
 * JSON-format records with its `json` type. The oracle for Avro is avro-js, Powertools' own
 * decoder, run here on the bytes the independent encoder wrote after the 5-byte header.
 */
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import avro from 'avro-js';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startRecorder } from '../../support/harness.ts';
import { createTopic, deleteTopic, offsets, uniqueName, waitFor } from '../../support/kafka.ts';
import { produceWithRegistry, type Produced } from '../../support/registry-producer.ts';
import { avroRecords, CUSTOMER_PROTO, order, ORDER_AVRO, protobufRecords } from './schemas.ts';

const N = 12;
interface Decoded {
  offset: number;
  value: unknown;
  valueSchemaMetadata?: unknown;
}

async function runPowertools(topic: string, format: 'JSON' | 'SOURCE', env: Record<string, string>): Promise<Decoded[]> {
  const decodedFile = join(mkdtempSync(join(tmpdir(), 'sluice-powertools-')), 'decoded.jsonl');
  const h = await startRecorder({
    topic, handler: 'functions/powertools.handler', recordFile: decodedFile, env,
    schemaRegistry: { uri: inject('schemaRegistryUrl'), format, key: false, value: true, access: {} },
  });
  try {
    await waitFor(`Powertools' handler through ${topic}`, async () => (await offsets(h.trigger.consumerGroupId, topic))[0]?.committed === N);
    const lines = existsSync(decodedFile) ? readFileSync(decodedFile, 'utf8').split('\n').filter(Boolean) : [];
    return lines.map((l) => JSON.parse(l) as Decoded);
  } finally {
    await h.stop();
  }
}

describe('schema registry: a Powertools handler, unmodified', () => {
  const avroTopic = uniqueName('sr-pt-avro');
  const protoTopic = uniqueName('sr-pt-proto');
  let avroProduced: Produced;

  beforeAll(async () => {
    await createTopic(avroTopic, 1);
    await createTopic(protoTopic, 1);
    avroProduced = await produceWithRegistry(inject('schemaRegistryUrl'), avroTopic, avroRecords(N));
    // Customers only: Powertools is configured with one message type.
    await produceWithRegistry(inject('schemaRegistryUrl'), protoTopic, protobufRecords(N * 2).filter((_, i) => i % 3 !== 2).slice(0, N));
  });
  afterAll(async () => {
    await deleteTopic(avroTopic);
    await deleteTopic(protoTopic);
  });

  it('decodes Sluice\'s SOURCE-format Avro exactly as avro-js decodes the producer\'s bytes', async () => {
    const decoded = await runPowertools(avroTopic, 'SOURCE', { POWERTOOLS_VALUE: 'avro', AVRO_SCHEMA: ORDER_AVRO });
    const type = avro.parse(ORDER_AVRO);
    expect(decoded.map((d) => d.offset)).toEqual([...Array(N).keys()]);
    decoded.forEach((d, i) => {
      expect(d.value).toEqual(JSON.parse(JSON.stringify(type.fromBuffer(avroProduced.encoded[i]!.value!.subarray(5)))));
      expect(d.value).toMatchObject({ id: order(i).id, category: order(i).category, status: order(i).status });
    });
  });

  it('decodes Sluice\'s SOURCE-format Protobuf, message indexes and all, to the messages produced', async () => {
    const decoded = await runPowertools(protoTopic, 'SOURCE', { POWERTOOLS_VALUE: 'protobuf', PROTO_SCHEMA: CUSTOMER_PROTO, PROTO_MESSAGE: 'shop.Customer' });
    const expected = protobufRecords(N * 2).filter((_, i) => i % 3 !== 2).slice(0, N).map((r) => (r.value as { data: unknown }).data);
    expect(decoded.map((d) => d.value)).toEqual(expected);
    expect(decoded.every((d) => (d.valueSchemaMetadata as { dataFormat: string }).dataFormat === 'PROTOBUF')).toBe(true);
  });

  it('reads JSON-format records with its json type', async () => {
    const decoded = await runPowertools(avroTopic, 'JSON', { POWERTOOLS_VALUE: 'json' });
    expect(decoded.map((d) => d.value)).toEqual([...Array(N).keys()].map(order));
  });
});
