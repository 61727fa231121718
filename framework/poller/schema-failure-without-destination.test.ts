/**
 * A record the schema registry could not decode, on a trigger without a destination, through the
 * poller's own steps (decode, planWork, BatchProcessor, Delivery): skipped as AWS drops it only when
 * it is the record's own fault (RecordDecoder.mayDrop). A hostile review found the first rule
 * (skip once any record decoded) dropping the records of a schema a registry node did not show yet,
 * and of a schema Sluice refuses to compile.
 */
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import { RecordDecoder } from '../schema/decoder.ts';
import { SchemaNotFoundError, type RegisteredSchema, type SchemaRegistry } from '../schema/registry.ts';
import { BatchProcessor } from './batch-processor.ts';
import type { ChunkInvoker } from './chunk-invoker.ts';
import { Delivery } from './delivery.ts';
import { planWork } from './work-plan.ts';

const trigger = {
  functionName: 'orders', consumerGroupId: 'g', topic: 'orders', path: 'functions.orders.events[0]', batchSize: 100, timeoutMs: 3_000, filterPatterns: [],
  failure: { maximumRetryAttempts: -1, bisectBatchOnFunctionError: false, reportBatchItemFailures: false },
} as unknown as TriggerSpec;
const framed = (id: number, json: unknown) => { const h = Buffer.alloc(5); h.writeInt32BE(id, 1); return Buffer.concat([h, Buffer.from(JSON.stringify(json))]); };
const rec = (offset: number, value: Buffer): KafkaRecord => ({ topic: 'orders', partition: 0, offset, timestamp: Date.now(), timestampType: 'CREATE_TIME', key: null, value, headers: [] });

function registry(schemas: Record<string, RegisteredSchema>, uri: string): SchemaRegistry & { lookups: string[] } {
  const r = { uri, kind: 'confluent' as const, lookups: [] as string[], async lookup(id: string) { r.lookups.push(id); const s = schemas[id]; if (!s) throw new SchemaNotFoundError(id, uri, 'answered 404 (40403 Schema not found)'); return s; } };
  return r;
}

/** One fetch of `records` through the poller's own steps (decode -> planWork -> BatchProcessor), factor 1, no destination. */
async function fetchOnce(decoder: RecordDecoder, records: KafkaRecord[]) {
  const events = new Instrumentation();
  const out = { invoked: [] as number[], committed: [] as number[], skipped: [] as string[], held: [] as string[], paused: 0 };
  events.on('poller.skipped', (e) => out.skipped.push(`${e.offsets.join(',')} ${e.reason}`));
  events.on('poller.destination_failed', (e) => out.held.push(`${e.offsets.join(',')} ${e.reason}`));
  const logger = createLogger('t', { write: () => undefined, format: 'json' });
  const delivery = new Delivery(trigger, undefined, events, logger, 1_000, 60_000, (r) => decoder.mayDrop(r));
  const invoker = { invoke: async (_b: PartitionBatch, item: { records: KafkaRecord[] }) => { out.invoked.push(...item.records.map((r) => r.offset)); return { ok: true, payload: null, durationMs: 1, requestId: 'r' }; } } as unknown as ChunkInvoker;
  const processor = new BatchProcessor({ trigger, maxPollIntervalMs: 60_000, invokerOverheadMs: 0, events, logger, invoker, delivery });
  const batch = {
    topic: 'orders', partition: 0, records, highWatermark: records.at(-1)!.offset + 1, fetchedAt: Date.now(), joinId: 'j',
    heartbeat: async () => undefined, isActive: () => true, pauseFor: () => void out.paused++, fetchFrom: () => undefined, fetchFromLater: () => undefined,
    commit: async (o: number) => { out.committed.push(o); return { ok: true }; },
  } as unknown as PartitionBatch;
  const decoded = await decoder.decode(records);
  const undecodable = new Map(decoded.filter((d) => !d.ok).map((d) => [d.record.offset, { reason: (d as { reason: 'SCHEMA_NOT_FOUND' }).reason, error: (d as { error: string }).error }]));
  const work = planWork(decoded.map((d) => d.record), () => true, { batchSize: 100, maxPayloadBytes: 6_000_000, envelopeBytes: 200 }, [], undecodable);
  await processor.process(batch, work, records.at(-1)!.offset + 1);
  return out;
}

const JSON_OBJECT: RegisteredSchema = { format: 'JSON', definition: '{"type":"object"}', references: [] };

describe('a schema failure without a destination', () => {
  it('holds while the registry has decoded no record of the trigger (a wrong schemaRegistryUri fails every record alike)', async () => {
    const decoder = new RecordDecoder({ registry: registry({}, 'http://wrong:8081'), format: 'JSON', key: false, value: true, filters: false, notFoundGraceMs: 0 });
    const out = await fetchOnce(decoder, [rec(0, framed(1, { a: 1 })), rec(1, Buffer.from('not framed'))]);
    expect(out.held).toEqual(['0 SCHEMA_NOT_FOUND']);
    expect([out.skipped, out.invoked, out.committed]).toEqual([[], [], []]);
  });

  it('skips bytes that are not the registry\'s frame once a record decoded, as AWS drops them', async () => {
    const decoder = new RecordDecoder({ registry: registry({ '1': JSON_OBJECT }, 'http://sr:8081'), format: 'JSON', key: false, value: true, filters: false });
    const out = await fetchOnce(decoder, [rec(0, framed(1, { a: 1 })), rec(1, Buffer.from('not framed')), rec(2, framed(1, { b: 2 }))]);
    expect(out.skipped).toEqual(['1 DESERIALIZATION_ERROR']);
    expect(out.invoked).toEqual([0, 2]);
    expect(out.committed.at(-1)).toBe(3);
  });

  it('holds a schema id the registry does not have yet (a node not caught up), asks again on the next attempt, and invokes it once it shows', async () => {
    const schemas: Record<string, RegisteredSchema> = { '1': JSON_OBJECT };
    const reg = registry(schemas, 'http://sr:8081');
    const decoder = new RecordDecoder({ registry: reg, format: 'JSON', key: false, value: true, filters: false });
    await fetchOnce(decoder, [rec(0, framed(1, { a: 1 }))]);
    const first = await fetchOnce(decoder, [rec(1, framed(2, { new: 'schema' }))]);
    expect(first.held).toEqual(['1 SCHEMA_NOT_FOUND']);
    expect([first.skipped, first.committed]).toEqual([[], []]);
    schemas['2'] = JSON_OBJECT;
    const again = await fetchOnce(decoder, [rec(1, framed(2, { new: 'schema' }))]);
    expect(again.invoked).toEqual([1]);
    expect(reg.lookups.filter((id) => id === '2')).toHaveLength(2);
  });

  it('skips a record of a schema id the registry still does not have once the grace has passed', async () => {
    const decoder = new RecordDecoder({ registry: registry({ '1': JSON_OBJECT }, 'http://sr:8081'), format: 'JSON', key: false, value: true, filters: false, notFoundGraceMs: 0 });
    const out = await fetchOnce(decoder, [rec(0, framed(1, { a: 1 })), rec(1, framed(0x7fffff01, { garbage: true }))]);
    expect(out.skipped).toEqual(['1 SCHEMA_NOT_FOUND']);
    expect(out.committed.at(-1)).toBe(2);
  });

  it('holds the records of a schema Sluice refuses to compile (a lookahead, which AWS\'s Java regex runs): the schema\'s problem, not theirs', async () => {
    const schemas: Record<string, RegisteredSchema> = {
      '1': JSON_OBJECT,
      '2': { format: 'JSON', definition: JSON.stringify({ type: 'object', properties: { sku: { type: 'string', pattern: '^(?=.*[0-9])[A-Z0-9-]+$' } } }), references: [] },
    };
    const decoder = new RecordDecoder({ registry: registry(schemas, 'http://sr:8081'), format: 'JSON', key: false, value: true, filters: false, notFoundGraceMs: 0 });
    const out = await fetchOnce(decoder, [rec(0, framed(1, { a: 1 })), rec(1, framed(2, { sku: 'AB-12' })), rec(2, framed(2, { sku: 'CD-34' }))]);
    expect(out.held).toEqual(['1 DESERIALIZATION_ERROR']);
    expect(out.skipped).toEqual([]);
    expect(out.committed.at(-1)).toBe(1);
  });
});
