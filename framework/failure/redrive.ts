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

/**
 * A reduced copy: the record did not fit the destination topic, so the copy holds only Sluice's
 * headers. Nothing to send back; the record is read from its source while retention keeps it.
 */
export interface ReducedCopy extends Omit<FailedCopy, 'original'> {
  /** Why it was reduced, as the copy says (sizes, and where to read the record). */
  reduced: string;
}

const OURS = new Set<string>(Object.values(FAILURE_HEADERS));

/** The failed record a destination copy holds, a reduced copy's coordinates, or a sentence saying why this is not a copy. */
export function readFailedCopy(r: DestinationRecord): FailedCopy | ReducedCopy | string {
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
  const error = ours.get(FAILURE_HEADERS.error);
  const failedAt = ours.get(FAILURE_HEADERS.time);
  const failure = {
    source: { topic, partition, offset },
    reason: ours.get(FAILURE_HEADERS.reason) ?? 'unknown',
    attempts: Number(ours.get(FAILURE_HEADERS.attempts) ?? 0),
    ...(error !== undefined ? { error } : {}),
    ...(failedAt !== undefined ? { failedAt } : {}),
  };
  const reduced = ours.get(FAILURE_HEADERS.reduced);
  if (reduced !== undefined) return { ...failure, reduced };
  const own = r.headers.slice(i).map(([n, v]): [string, Buffer] => [ownHeaderName(n), v ?? Buffer.alloc(0)]);
  return { ...failure, original: { key: r.key, value: r.value, headers: own } };
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

export function selected(c: Pick<FailedCopy, 'source' | 'reason'>, s: RedriveSelection): boolean {
  if (s.partition !== undefined && c.source.partition !== s.partition) return false;
  if (s.fromOffset !== undefined && c.source.offset < s.fromOffset) return false;
  if (s.toOffset !== undefined && c.source.offset > s.toOffset) return false;
  if (s.reason !== undefined && c.reason !== s.reason) return false;
  return true;
}
