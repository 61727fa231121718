/**
 * What the librdkafka member keeps of a message as it arrives. librdkafka reads and decompresses
 * record batches in C, without Sluice's bounds (docs/failures.md), so a record is checked once it
 * is here: one whose key and value pass maxDecompressedBytes is what kafkajs refuses from its
 * batch's framing (BatchUnreadable), and could never be invoked (Lambda's payload is 6 MB). Its
 * bytes are let go at once, before it waits in the member's buffer: only its coordinates and size
 * stay, and it reaches the destination as BatchUnreadable, as on kafkajs.
 */
import type { Message } from '@confluentinc/kafka-javascript';
import { INPUT_BOUNDS } from '../../config/input-bounds.ts';
import type { KafkaRecord } from '../../event/record.ts';

/**
 * What a buffered message counts toward the member's read-ahead besides its payload: about what a
 * message object and its record retain. Counted on payload bytes alone, 100,000 empty records (one
 * batch kafkajs's own producer writes from one send) never filled the buffer that pauses a partition.
 */
export const MESSAGE_OVERHEAD_BYTES = 512;

const LET_GO = Symbol('sluice.letGo');
type Arrived = Message & { [LET_GO]?: number };

/** The message to buffer: itself, or, past `bound`, a copy without key, value and headers that remembers their size. */
export function arrived(m: Message, bound: number = INPUT_BOUNDS.maxDecompressedBytes): Message {
  const bytes = (m.value?.length ?? 0) + (m.key === undefined || m.key === null ? 0 : Buffer.byteLength(m.key as Buffer | string));
  if (bytes <= bound) return m;
  const kept: Arrived = { ...m, value: null, key: undefined, headers: undefined, [LET_GO]: bytes };
  return kept;
}

/** What a buffered message costs the member's read-ahead (its payload as it arrived, and MESSAGE_OVERHEAD_BYTES). */
export const bufferCost = (m: Message): number => m.size + MESSAGE_OVERHEAD_BYTES;

/** The record of a message `arrived` let go of: unreadable, BatchUnreadable; undefined for any other. */
export function letGoRecord(base: KafkaRecord, m: Message, bound: number = INPUT_BOUNDS.maxDecompressedBytes): KafkaRecord | undefined {
  const bytes = (m as Arrived)[LET_GO];
  if (bytes === undefined) return undefined;
  const error = `its record batch decompressed past maxDecompressedBytes (${bound} bytes): this record alone is ${bytes} bytes (librdkafka decompresses batches itself, so the bound is checked on each record it hands over)`;
  return { ...base, key: null, value: null, headers: [], unreadable: { reason: 'BatchUnreadable', error } };
}
