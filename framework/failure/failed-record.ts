/**
 * Pure: what travels to an on-failure destination with a record: why, when, after how many
 * attempts, and where it came from. Kafka destinations carry it as headers next to the
 * record's own key, value and headers; SQS, SNS and S3 as one JSON document per record.
 */
import { toEventRecord } from '../event/build-event.ts';
import type { KafkaRecord } from '../event/record.ts';
import { messageSafeJson } from './message-chars.ts';
import type { FailureReason } from './policy.ts';

export interface FailedRecord {
  record: KafkaRecord;
  reason: FailureReason;
  /** Invocations that included the record (0 when it expired or was too large before any). */
  attempts: number;
  /** The last invocation's error, when there was one. */
  error?: string;
  functionName: string;
  consumerGroupId: string;
  /** When the poller gave up on it (epoch ms). */
  at: number;
}

/** Header names on records written to a Kafka destination. */
export const FAILURE_HEADERS = {
  reason: 'sluice-failure-reason',
  time: 'sluice-failure-time',
  attempts: 'sluice-failure-attempts',
  error: 'sluice-failure-error',
  function: 'sluice-function',
  group: 'sluice-consumer-group',
  topic: 'sluice-source-topic',
  partition: 'sluice-source-partition',
  offset: 'sluice-source-offset',
  /** The source record's timestamp (epoch ms, decimal) and its type (CREATE_TIME | LOG_APPEND_TIME): the copy itself is stamped when it is sent. */
  sourceTimestamp: 'sluice-source-timestamp',
  sourceTimestampType: 'sluice-source-timestamp-type',
  /**
   * On a kafka:// copy that would not fit the destination topic with the record's key, value and
   * own headers: why it holds only Sluice's headers (the source coordinates above say where the record is).
   */
  reduced: 'sluice-failure-copy-reduced',
} as const;

const MAX_ERROR_CHARS = 1_000;
/** Sluice's header namespace, and the prefix that keeps a producer's own header out of it on a destination copy. */
const SLUICE_PREFIX = 'sluice-';
const FORGED_PREFIX = 'producer-';

/**
 * A producer's own header name as a destination copy carries it: a name that is `sluice-*` after
 * any number of leading `producer-` gets one more, so no own header is in Sluice's namespace and
 * every name comes back (ownHeaderName) as it was, `producer-sluice-failure-reason` included.
 * Other names are unchanged.
 */
export function copiedHeaderName(name: string): string {
  return sluiceAfterPrefixes(name) ? FORGED_PREFIX + name : name;
}

/** The inverse of copiedHeaderName: the name the producer wrote. */
export function ownHeaderName(copied: string): string {
  return copied.startsWith(FORGED_PREFIX) && sluiceAfterPrefixes(copied) ? copied.slice(FORGED_PREFIX.length) : copied;
}

function sluiceAfterPrefixes(name: string): boolean {
  let i = 0;
  while (name.startsWith(FORGED_PREFIX, i)) i += FORGED_PREFIX.length;
  return name.startsWith(SLUICE_PREFIX, i);
}

/**
 * Every header of a Kafka destination copy: Sluice's failure headers first, then the record's own,
 * renamed by copiedHeaderName, so neither a reader that takes the first occurrence nor one that
 * takes the last (Java's lastHeader) sees forged metadata, and redrive restores each name exactly.
 */
export function destinationHeaders(f: FailedRecord): Array<[string, Buffer]> {
  const own = f.record.headers.map(([n, v]): [string, Buffer] => [copiedHeaderName(n), v ?? Buffer.alloc(0)]);
  return [...failureHeaders(f).map(([n, v]): [string, Buffer] => [n, Buffer.from(v)]), ...own];
}

/**
 * A copy of `f` with no key, value or own headers, saying why (`reason`): what a kafka://
 * destination gets of a record that would not fit it whole, so the partition does not wait on it for ever.
 */
export function reducedDestinationHeaders(f: FailedRecord, reason: string): Array<[string, Buffer]> {
  return [...failureHeaders(f), [FAILURE_HEADERS.reduced, reason] as [string, string]].map(([n, v]): [string, Buffer] => [n, Buffer.from(v)]);
}

export function failureHeaders(f: FailedRecord): Array<[string, string]> {
  const h: Array<[string, string]> = [
    [FAILURE_HEADERS.reason, f.reason],
    [FAILURE_HEADERS.time, new Date(f.at).toISOString()],
    [FAILURE_HEADERS.attempts, String(f.attempts)],
    [FAILURE_HEADERS.function, f.functionName],
    [FAILURE_HEADERS.group, f.consumerGroupId],
    [FAILURE_HEADERS.topic, f.record.topic],
    [FAILURE_HEADERS.partition, String(f.record.partition)],
    [FAILURE_HEADERS.offset, String(f.record.offset)],
    [FAILURE_HEADERS.sourceTimestamp, String(f.record.timestamp)],
    [FAILURE_HEADERS.sourceTimestampType, f.record.timestampType],
  ];
  if (f.error) h.push([FAILURE_HEADERS.error, f.error.slice(0, MAX_ERROR_CHARS)]);
  return h;
}

/**
 * The JSON document for SQS, SNS and S3. `record` is the record as the handler's event holds
 * it (base64 key and value); it is left out, with `recordOmitted`, when `maxBytes` would be
 * exceeded (SQS and SNS cap a message at 256 KB; S3 takes any size). Characters SQS refuses
 * (U+FFFF in a header name or an error text) are JSON escapes (messageSafeJson), counted in the size.
 */
export function failureDocument(f: FailedRecord, maxBytes = Infinity): string {
  const meta = {
    version: '1.0',
    timestamp: new Date(f.at).toISOString(),
    requestContext: { functionName: f.functionName, condition: f.reason, approximateInvokeCount: f.attempts, ...(f.error ? { errorMessage: f.error.slice(0, MAX_ERROR_CHARS) } : {}) },
    source: { topic: f.record.topic, partition: f.record.partition, offset: f.record.offset, consumerGroupId: f.consumerGroupId },
  };
  const full = messageSafeJson(JSON.stringify({ ...meta, record: toEventRecord(f.record) }));
  if (Buffer.byteLength(full) <= maxBytes) return full;
  return messageSafeJson(JSON.stringify({ ...meta, recordOmitted: `the record does not fit in ${maxBytes} bytes; read it from ${f.record.topic}-${f.record.partition}@${f.record.offset} while retention keeps it` }));
}
