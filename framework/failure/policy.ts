/**
 * Pure: what to do with records an invocation did not finish, by AWS's Kafka event source
 * mapping rules (DESIGN §2.5). A failing set of more than one record is split in two when
 * bisection is on (the split is not a retry); otherwise it is retried with backoff until its
 * retries run out, then handed to the on-failure destination. -1 retries means until the
 * record expires, capped at 10 when a destination is set, as on AWS.
 */
import type { FailurePolicy } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import { retryDelayMs } from './backoff.ts';

/** The schema-registry reasons carry AWS's names for them (SCHEMA_NOT_FOUND, DESERIALIZATION_ERROR). */
export type FailureReason = 'RetryAttemptsExhausted' | 'RecordAgeExceeded' | 'PayloadTooLarge' | SchemaFailureReason | InputFailureReason;
/**
 * Sluice's own reasons for a record that could not be read as a record (README, "Bounds on hostile
 * input"); AWS has no name for these. Each is decided before any invocation, once, and sent on.
 * - BatchUnreadable: its record batch did not decompress within the bound (or is corrupt);
 * - HeadersOverLimit: more headers, or header bytes, than the bound;
 * - FilterFailed: the filter patterns could not be evaluated on it (a value past the filter's byte bound, JSON nested past its depth bound);
 * - RecordUnreadable: the poller's own code failed on it.
 */
export type InputFailureReason = 'BatchUnreadable' | 'HeadersOverLimit' | 'FilterFailed' | 'RecordUnreadable';
export type SchemaFailureReason = 'SCHEMA_NOT_FOUND' | 'DESERIALIZATION_ERROR';
export const isSchemaFailure = (reason: FailureReason): reason is SchemaFailureReason => reason === 'SCHEMA_NOT_FOUND' || reason === 'DESERIALIZATION_ERROR';

/** AWS caps "infinite" retries at 10 once an on-failure destination exists. */
export const RETRIES_CAP_WITH_DESTINATION = 10;

export type Decision =
  | { action: 'bisect'; firstHalf: number }
  | { action: 'retry'; delayMs: number }
  | { action: 'give-up'; reason: FailureReason };

export function maxRetries(policy: FailurePolicy): number {
  if (policy.maximumRetryAttempts >= 0) return policy.maximumRetryAttempts;
  return policy.onFailure ? RETRIES_CAP_WITH_DESTINATION : Infinity;
}

/**
 * `attempts` counts the failed invocations of this set so far, this one included (1 after
 * the first failure). The set is invoked at most 1 + maxRetries times.
 */
export function decideAfterFailure(policy: FailurePolicy, failedCount: number, attempts: number, random: () => number = Math.random): Decision {
  if (policy.bisectBatchOnFunctionError && failedCount > 1) return { action: 'bisect', firstHalf: Math.ceil(failedCount / 2) };
  if (attempts > maxRetries(policy)) return { action: 'give-up', reason: 'RetryAttemptsExhausted' };
  return { action: 'retry', delayMs: retryDelayMs(attempts, undefined, random) };
}

/** Older than maximumRecordAgeInSeconds: sent to the destination instead of the function. */
export function isExpired(record: KafkaRecord, policy: FailurePolicy, now: number): boolean {
  return policy.maximumRecordAgeMs !== undefined && now - record.timestamp > policy.maximumRecordAgeMs;
}
