/**
 * Pure: a record read back from a Kafka on-failure destination, as what it was before it failed
 * (failed-record.ts wrote it): where it came from, why it failed, and its own key, value and
 * headers, Sluice's failure headers taken off and a producer's renamed headers given their names
 * back (ownHeaderName). `redrive` sends it to its source topic with these.
 */
import { FAILURE_HEADERS, ownHeaderName } from './failed-record.ts';

export interface DestinationRecord {
  key: Buffer | null;
  value: Buffer | null;
  headers: Array<[string, Buffer | null]>;
}

export interface FailedCopy {
  source: { topic: string; partition: number; offset: number };
  reason: string;
  attempts: number;
  error?: string;
  failedAt?: string;
  /** The record as its producer wrote it (a null header value, which the copy could not keep, is empty). */
  original: { key: Buffer | null; value: Buffer | null; headers: Array<[string, Buffer]> };
}

const OURS = new Set<string>(Object.values(FAILURE_HEADERS));

/** The failed record a destination copy holds, or a sentence saying why this is not one. */
export function readFailedCopy(r: DestinationRecord): FailedCopy | string {
  const ours = new Map<string, string>();
  let i = 0;
  // Sluice's headers come first (destinationHeaders); the record's own follow.
  for (; i < r.headers.length && OURS.has(r.headers[i]![0]); i++) ours.set(r.headers[i]![0], r.headers[i]![1]?.toString('utf8') ?? '');
  const topic = ours.get(FAILURE_HEADERS.topic);
  const partition = Number(ours.get(FAILURE_HEADERS.partition));
  const offset = Number(ours.get(FAILURE_HEADERS.offset));
  if (!topic || !Number.isInteger(partition) || !Number.isInteger(offset)) {
    return `it carries no ${FAILURE_HEADERS.topic}/${FAILURE_HEADERS.partition}/${FAILURE_HEADERS.offset} headers, so Sluice did not write it`;
  }
  const reduced = ours.get(FAILURE_HEADERS.reduced);
  if (reduced !== undefined) return `it holds no copy of the record (${reduced})`;
  const own = r.headers.slice(i).map(([n, v]): [string, Buffer] => [ownHeaderName(n), v ?? Buffer.alloc(0)]);
  const error = ours.get(FAILURE_HEADERS.error);
  const failedAt = ours.get(FAILURE_HEADERS.time);
  return {
    source: { topic, partition, offset },
    reason: ours.get(FAILURE_HEADERS.reason) ?? 'unknown',
    attempts: Number(ours.get(FAILURE_HEADERS.attempts) ?? 0),
    ...(error !== undefined ? { error } : {}),
    ...(failedAt !== undefined ? { failedAt } : {}),
    original: { key: r.key, value: r.value, headers: own },
  };
}

/** Which failed records a redrive takes: all by default. */
export interface RedriveSelection {
  /** Only records that came from this source partition. */
  partition?: number;
  /** Only source offsets from (inclusive) and to (inclusive). */
  fromOffset?: number;
  toOffset?: number;
  /** Only records that failed for this reason (RetryAttemptsExhausted, RecordAgeExceeded, …: policy.ts). */
  reason?: string;
}

export function selected(c: FailedCopy, s: RedriveSelection): boolean {
  if (s.partition !== undefined && c.source.partition !== s.partition) return false;
  if (s.fromOffset !== undefined && c.source.offset < s.fromOffset) return false;
  if (s.toOffset !== undefined && c.source.offset > s.toOffset) return false;
  if (s.reason !== undefined && c.reason !== s.reason) return false;
  return true;
}
