/**
 * Pure: which records of a partition may start now, as which chunks, when up to
 * `parallelizationFactor` chunks of it run at once. Order is kept per key instead of per
 * partition: a key is never in two running (or waiting-to-retry) chunks, and a key's records are
 * invoked in offset order. Records with a null key share one key of their own (ordering-key
 * below): they keep partition order among themselves, as with factor 1, and run beside keyed ones.
 *
 * Chunks are formed by key, not by offset: each free key's records go whole into one chunk (up to
 * the batch size and the payload limit, in offset order), a chunk of its own while slots are
 * left, else the least filled chunk, so keys that interleave run side by side (cut by offset,
 * first fit, the first chunk took most keys and blocked the next: 8 interleaved keys at factor 4
 * ran one chunk at a time). Keys are placed in the order of their first record, so the lowest
 * record that may start always does (the committed offset keeps moving). Within a chunk records
 * are in offset order, as Lambda gets them. Nothing beyond `maxOffset` starts: the metadata that records what is done beyond the committed
 * offset has a bounded window (commit-metadata.ts, windowFor), and past it the partition waits.
 */

export interface ScheduleInput<T extends { offset: number }> {
  /** Records neither done nor started (nor held by a chunk that waits to retry), in offset order. */
  pending: readonly T[];
  /** The record's ordering key (orderingKey). */
  keyOf(record: T): string;
  /** Keys of the chunks running or waiting to retry: their later records wait. */
  held: ReadonlySet<string>;
  /** Chunks that may start now: the factor less those running. */
  slots: number;
  batchSize: number;
  /** The highest offset a chunk may hold (the committed offset plus the metadata's window). */
  maxOffset: number;
  /**
   * Whether `record` may join the non-empty `chunk` (the payload limit). A record alone always
   * fits: one too large for an invocation is set aside before, as planWork does.
   */
  fits?(chunk: readonly T[], record: T): boolean;
}

export function nextChunks<T extends { offset: number }>(input: ScheduleInput<T>): T[][] {
  const { pending, keyOf, held, slots, batchSize, maxOffset, fits = () => true } = input;
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batchSize must be a positive integer, got ${batchSize}`);
  // Each free key's records within the window, in offset order; keys in the order of their first record.
  const byKey = new Map<string, T[]>();
  for (const record of pending) {
    if (record.offset > maxOffset) break;
    const key = keyOf(record);
    if (held.has(key)) continue;
    const records = byKey.get(key);
    if (records) records.push(record);
    else byKey.set(key, [record]);
  }
  const chunks: T[][] = [];
  const room = (c: T[], r: T) => c.length < batchSize && (c.length === 0 || fits(c, r));
  for (const records of byKey.values()) {
    const first = records[0]!;
    // A chunk of its own while slots are left (keys side by side), else the least filled one it fits in.
    let chunk: T[] | undefined;
    if (chunks.length < slots) chunks.push((chunk = []));
    else for (const c of chunks) if (room(c, first) && (!chunk || c.length < chunk.length)) chunk = c;
    if (!chunk) continue; // its records wait for a chunk to end
    // A prefix of the key's records: one that does not fit keeps the later ones out too.
    for (const r of records) {
      if (!room(chunk, r)) break;
      chunk.push(r);
    }
  }
  for (const c of chunks) c.sort((a, b) => a.offset - b.offset);
  return chunks;
}

/** The ordering key of records with a null key: one key, distinct from every keyed record's. */
export const NULL_KEY = 'null';

/**
 * A record's ordering key: its key's bytes as read from Kafka (before any schema registry decoded
 * them: those are the bytes the producer's partitioner hashed), or NULL_KEY.
 */
export function orderingKey(record: { key: Buffer | null; received?: { key: Buffer | null } }): string {
  const raw = record.received ? record.received.key : record.key;
  return raw === null ? NULL_KEY : `k:${raw.toString('base64')}`;
}

export type OrderingKeyOf = (record: { offset: number; key: Buffer | null; received?: { key: Buffer | null } }) => string;

/**
 * The trigger's ordering key: orderingKey, or with `ordering: unordered` each record its own
 * (its offset), so no record waits for another and a failing one holds only itself.
 */
export function orderingKeyOf(ordering: 'unordered' | undefined): OrderingKeyOf {
  return ordering === 'unordered' ? (record) => `o:${record.offset}` : orderingKey;
}
