/**
 * Pure: which records of a partition may start now, as which chunks, when up to
 * `parallelizationFactor` chunks of it run at once. Order is kept per key instead of per
 * partition: a key is never in two running (or waiting-to-retry) chunks, and a key's records are
 * invoked in offset order. Records with a null key share one key of their own (ordering-key
 * below): they keep partition order among themselves, as with factor 1, and run beside keyed ones.
 *
 * The scan goes in offset order, so the lowest record that may start always does (the committed
 * offset keeps moving), and chunks are filled first-fit (chunk 1 to batchSize, then chunk 2).
 * Nothing beyond `maxOffset` starts: the metadata that records what is done beyond the committed
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
  const chunks: T[][] = [];
  /** Which chunk of this plan took a key; a key missing here and in `held` is free. */
  const claimedBy = new Map<string, number>();
  /** Keys with a record left behind in this scan: their later records must wait too. */
  const blocked = new Set<string>();
  const room = (c: T[], r: T) => c.length < batchSize && (c.length === 0 || fits(c, r));

  for (const record of pending) {
    if (record.offset > maxOffset) break;
    const key = keyOf(record);
    if (held.has(key) || blocked.has(key)) continue;
    const claimed = claimedBy.get(key);
    if (claimed !== undefined) {
      const chunk = chunks[claimed]!;
      if (room(chunk, record)) chunk.push(record);
      else blocked.add(key);
      continue;
    }
    let at = chunks.findIndex((c) => room(c, record));
    if (at < 0 && chunks.length < slots) at = chunks.push([]) - 1;
    if (at < 0) {
      if (chunks.length === slots && chunks.every((c) => c.length >= batchSize)) break;
      blocked.add(key);
      continue;
    }
    chunks[at]!.push(record);
    claimedBy.set(key, at);
  }
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
