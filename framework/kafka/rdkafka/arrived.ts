/**
 * What the librdkafka member keeps of a message as it arrives. librdkafka reads and decompresses
 * record batches in C. With Sluice's patch (infra/patches/librdkafka.mjs) it stops inflating a
 * batch past maxDecompressedBytes and hands the batch over as a decompression error at its
 * last offset, and the binding copies no record whose key and value pass maxDecompressedBytes (it
 * hands over the size instead): both go to the destination as BatchUnreadable, as on kafkajs.
 * Without the patch such a record arrives whole, and its bytes are let go of here, before it waits
 * in the member's buffer: only its coordinates and size stay.
 */
import type { Message } from '@confluentinc/kafka-javascript';
import { INPUT_BOUNDS } from '../../config/input-bounds.ts';
import type { KafkaRecord } from '../../event/record.ts';
import { batchUnreadable } from '../record-headers.ts';

/**
 * What a buffered message counts toward the member's read-ahead besides its payload: about what a
 * message object and its record retain. Counted on payload bytes alone, 100,000 empty records (one
 * batch kafkajs's own producer writes from one send) never filled the buffer that pauses a partition.
 */
export const MESSAGE_OVERHEAD_BYTES = 512;

const LET_GO = Symbol('sluice.letGo');
/** What the patched binding adds to a message it did not convert whole. */
export interface NativeMarks {
  /** The record's key and value bytes, not copied (past SLUICE_RDKAFKA_MAX_RECORD_BYTES). */
  sluiceLetGo?: number;
  /** Its headers, counted and not built (past SLUICE_RDKAFKA_MAX_HEADERS or _HEADER_BYTES). */
  sluiceHeadersOverLimit?: { count: number; bytes: number };
  /** A record batch of the partition librdkafka could not read, at the batch's last offset. */
  sluiceError?: { code: number; message: string };
}
type Arrived = Message & NativeMarks & { [LET_GO]?: number };

/** The error of an unreadable record batch, when this message stands for one. */
export const unreadableBatch = (m: Message): NativeMarks['sluiceError'] => (m as Arrived).sluiceError;

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
  const failed = unreadableBatch(m);
  if (failed) {
    const first = /of message at (\d+)/.exec(failed.message)?.[1] ?? '?';
    return batchUnreadable(base, first, `librdkafka: ${failed.message} (a batch that would inflate past ${bound} bytes, maxDecompressedBytes, is not decompressed)`);
  }
  const bytes = (m as Arrived)[LET_GO] ?? (m as Arrived).sluiceLetGo;
  if (bytes === undefined) return undefined;
  const error = `its record batch decompressed past maxDecompressedBytes (${bound} bytes): this record alone is ${bytes} bytes (librdkafka decompresses batches itself, so the bound is checked on each record it hands over)`;
  return { ...base, key: null, value: null, headers: [], unreadable: { reason: 'BatchUnreadable', error } };
}
