/**
 * Pure: cuts one partition's fetched records into invocation-sized chunks, in offset order.
 * A chunk never holds more than `batchSize` records, and its serialized event never exceeds
 * `maxPayloadBytes`. A record that cannot fit even alone is set apart (in its place in the
 * order) for the failure path, so it never stalls its partition.
 */
import { eventBytes, eventRecordBytes } from '../event/event-size.ts';
import type { KafkaRecord } from '../event/record.ts';

/** Lambda's limit for a synchronous invocation's request payload. */
export const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;

export interface ChunkLimits {
  batchSize: number;
  maxPayloadBytes: number;
  /** Bytes of the event around the records (envelopeBytes for this partition). */
  envelopeBytes: number;
}

export type ChunkStep =
  | { kind: 'chunk'; records: KafkaRecord[]; bytes: number }
  | { kind: 'oversized'; record: KafkaRecord; bytes: number };

export function planChunks(records: readonly KafkaRecord[], limits: ChunkLimits, sizeOf: (r: KafkaRecord) => number = eventRecordBytes): ChunkStep[] {
  if (!Number.isInteger(limits.batchSize) || limits.batchSize < 1) {
    throw new RangeError(`batchSize must be a positive integer, got ${limits.batchSize}`);
  }
  const steps: ChunkStep[] = [];
  let current: KafkaRecord[] = [];
  let currentBytes = 0;
  const flush = () => {
    if (current.length === 0) return;
    steps.push({ kind: 'chunk', records: current, bytes: eventBytes(limits.envelopeBytes, currentBytes, current.length) });
    current = [];
    currentBytes = 0;
  };

  for (const record of records) {
    const size = sizeOf(record);
    const alone = eventBytes(limits.envelopeBytes, size, 1);
    if (alone > limits.maxPayloadBytes) {
      flush();
      steps.push({ kind: 'oversized', record, bytes: alone });
      continue;
    }
    const full = current.length >= limits.batchSize;
    const tooBig = eventBytes(limits.envelopeBytes, currentBytes + size, current.length + 1) > limits.maxPayloadBytes;
    if (full || tooBig) flush();
    current.push(record);
    currentBytes += size;
  }
  flush();
  return steps;
}
