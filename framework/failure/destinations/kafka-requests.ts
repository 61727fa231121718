/**
 * Pure: cuts what goes to a `kafka://` destination into produce requests the topic accepts.
 * The broker refuses a record batch over the topic's `max.message.bytes` (1 MB by default)
 * with MESSAGE_TOO_LARGE; a failed set of many records must not become one such request.
 * Sizes are upper bounds of Kafka's v2 record format (uncompressed: Sluice's producer does not
 * compress), so a request that fits here fits on the broker.
 */
export interface SizedRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: ReadonlyArray<readonly [string, Buffer]>;
}

/** The record batch header (baseOffset … recordCount). */
export const BATCH_OVERHEAD_BYTES = 61;

/** One record's bytes in a batch, at most: its fields plus each varint at its widest. */
export function recordBytes(r: SizedRecord): number {
  const fields = 1 /* attributes */ + 10 /* timestampDelta */ + 5 /* offsetDelta */ + 5 /* key length */ + 5 /* value length */ + 5; /* header count */
  const headers = r.headers.reduce((n, [name, v]) => n + 10 + Buffer.byteLength(name) + v.length, 0);
  return 5 /* length */ + fields + (r.key?.length ?? 0) + (r.value?.length ?? 0) + headers;
}

export type Requests<T> = { ok: true; requests: T[][] } | { ok: false; index: number; bytes: number };

/** Consecutive groups, in order, each within `limitBytes`; or the first record that cannot fit even alone. */
export function splitIntoRequests<T>(records: readonly T[], limitBytes: number, sizeOf: (r: T) => number): Requests<T> {
  const requests: T[][] = [];
  let current: T[] = [];
  let bytes = BATCH_OVERHEAD_BYTES;
  for (const [index, r] of records.entries()) {
    const size = sizeOf(r);
    if (BATCH_OVERHEAD_BYTES + size > limitBytes) return { ok: false, index, bytes: BATCH_OVERHEAD_BYTES + size };
    if (current.length > 0 && bytes + size > limitBytes) {
      requests.push(current);
      current = [];
      bytes = BATCH_OVERHEAD_BYTES;
    }
    current.push(r);
    bytes += size;
  }
  if (current.length > 0) requests.push(current);
  return { ok: true, requests };
}
