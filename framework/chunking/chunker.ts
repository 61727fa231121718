/**
 * Pure: cuts one partition's fetched records into invocation-sized chunks, in offset order.
 * A chunk never holds more than `batchSize` records.
 */
import type { KafkaRecord } from '../event/record.ts';

export interface ChunkLimits {
  batchSize: number;
}

export function chunkRecords(records: readonly KafkaRecord[], limits: ChunkLimits): KafkaRecord[][] {
  if (!Number.isInteger(limits.batchSize) || limits.batchSize < 1) {
    throw new RangeError(`batchSize must be a positive integer, got ${limits.batchSize}`);
  }
  const chunks: KafkaRecord[][] = [];
  for (let i = 0; i < records.length; i += limits.batchSize) {
    chunks.push(records.slice(i, i + limits.batchSize));
  }
  return chunks;
}
