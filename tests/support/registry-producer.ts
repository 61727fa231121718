/**
 * Encodes and produces records with Confluent's Python serializers (tests/support/registry_produce.py),
 * which register their schemas in the registry as a real producer does: what Sluice decodes was
 * framed and encoded by code that shares nothing with it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { brokers } from './kafka.ts';
import { runPythonJson } from './python.ts';

export type Encoded =
  | null
  | { raw: Buffer }
  | { format: 'avro' | 'json'; schema: string; data: unknown }
  | { format: 'protobuf'; schema: string; message: string; data: unknown };

export interface RegistryRecord {
  partition?: number;
  key?: Encoded;
  value: Encoded;
}

export interface Produced {
  offsets: Array<[number, number]>;
  /** Each record's key and value bytes as produced (with the registry's header). */
  encoded: Array<{ key: Buffer | null; value: Buffer | null }>;
}

const SCRIPT = fileURLToPath(new URL('./registry_produce.py', import.meta.url));
const WORKDIR = mkdtempSync(join(tmpdir(), 'sluice-protoc-'));

/** `produce: false` only encodes (and registers the schemas). */
export async function produceWithRegistry(registry: string, topic: string, records: RegistryRecord[], o: { produce?: boolean } = {}): Promise<Produced> {
  const wire = (e: Encoded | undefined) => (e === undefined || e === null ? null : 'raw' in e ? { raw: e.raw.toString('base64') } : e);
  const input = JSON.stringify({
    brokers: brokers().join(','), registry, topic, workdir: WORKDIR, produce: o.produce ?? true,
    records: records.map((r) => ({ partition: r.partition ?? 0, key: wire(r.key), value: wire(r.value) })),
  });
  const parsed = await runPythonJson<{ offsets: Array<[number, number]>; encoded: Array<{ key: string | null; value: string | null }> }>(
    SCRIPT, input, 'the registry producer',
  );
  const buf = (s: string | null) => (s === null ? null : Buffer.from(s, 'base64'));
  return { offsets: parsed.offsets, encoded: parsed.encoded.map((e) => ({ key: buf(e.key), value: buf(e.value) })) };
}
