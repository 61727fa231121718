/**
 * Pure: the consumer-group and fetch settings a trigger implies. The batching window becomes
 * the broker-side fetch wait (minBytes high enough that a quiet topic waits the window out);
 * a window of 0 returns as soon as any record is there.
 */
import type { TriggerSpec } from '../config/types.ts';

export interface GroupTuning {
  sessionTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** Sent as the rebalance timeout in JoinGroup (Java's max.poll.interval.ms). */
  maxPollIntervalMs: number;
  maxWaitTimeMs: number;
  minBytes: number;
  maxBytesPerPartition: number;
  /** Partitions of this trigger processed at the same time. */
  concurrency: number;
}

/** kafkajs's default for a whole fetch (all partitions). */
export const FETCH_MAX_BYTES = 10 * 1024 * 1024;

/** Fetch waits with no window stay short so an idle member notices new records at once. */
const IDLE_FETCH_WAIT_MS = 1_000;

type TuningInput = Pick<TriggerSpec, 'maximumBatchingWindowMs' | 'sessionTimeoutMs' | 'heartbeatIntervalMs' | 'maxPollIntervalMs' | 'concurrency'>;

export function groupTuning(t: TuningInput): GroupTuning {
  const window = t.maximumBatchingWindowMs;
  // kafkajs heartbeats between fetches: a fetch may not hold the member past a third of its session.
  const waitCap = Math.floor(t.sessionTimeoutMs / 3);
  return {
    sessionTimeoutMs: t.sessionTimeoutMs,
    heartbeatIntervalMs: t.heartbeatIntervalMs,
    maxPollIntervalMs: t.maxPollIntervalMs,
    concurrency: t.concurrency,
    maxWaitTimeMs: window === 0 ? IDLE_FETCH_WAIT_MS : Math.min(window, waitCap),
    minBytes: window === 0 ? 1 : 1024 * 1024,
    // kafkajs fetches at most 10 MB in all: share it between the partitions processed at once, so
    // a backlog on one partition does not crowd the others out of a fetch (at least 1 MB each).
    maxBytesPerPartition: Math.max(1024 * 1024, Math.floor(FETCH_MAX_BYTES / t.concurrency)),
  };
}
