/**
 * Produces records with librdkafka (tests/support/produce.py, Python's confluent-kafka wheel,
 * from the suite's .sluice/venv), so what the poller reads was written by a client other than kafkajs:
 * its codecs, its batch framing, its headers.
 */
import { fileURLToPath } from 'node:url';
import { brokers } from './kafka.ts';
import { runPythonJson } from './python.ts';

export type Compression = 'none' | 'gzip' | 'snappy' | 'lz4' | 'zstd';

export interface PythonRecord {
  partition: number;
  key: Buffer | null;
  value: Buffer | null;
  headers?: Array<[string, Buffer]>;
  timestamp?: number;
}

const SCRIPT = fileURLToPath(new URL('./produce.py', import.meta.url));

/** Resolves with each record's [partition, offset], in the order delivered. */
export async function producePython(topic: string, compression: Compression, records: PythonRecord[]): Promise<Array<[number, number]>> {
  const b64 = (v: Buffer | null) => (v === null ? null : v.toString('base64'));
  const input = JSON.stringify({
    brokers: brokers().join(','),
    topic,
    compression,
    records: records.map((r) => ({ ...r, key: b64(r.key), value: b64(r.value), headers: (r.headers ?? []).map(([n, v]) => [n, b64(v)]) })),
  });
  const produced = await runPythonJson<{ offsets: Array<[number, number]> }>(SCRIPT, input, 'the librdkafka producer');
  return produced.offsets;
}
