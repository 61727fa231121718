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

export const DEFAULT_GROUP = { sessionTimeoutMs: 30_000, heartbeatIntervalMs: 3_000, maxPollIntervalMs: 300_000, concurrency: 4 };

/** Fetch waits stay well inside the session so kafkajs's between-fetch heartbeats keep it alive. */
const IDLE_FETCH_WAIT_MS = 1_000;

export function groupTuning(trigger: Pick<TriggerSpec, 'maximumBatchingWindowMs'>, base = DEFAULT_GROUP): GroupTuning {
  const window = trigger.maximumBatchingWindowMs;
  const waitCap = Math.floor(base.sessionTimeoutMs / 3);
  return {
    ...base,
    maxWaitTimeMs: window === 0 ? IDLE_FETCH_WAIT_MS : Math.min(window, waitCap),
    minBytes: window === 0 ? 1 : 1024 * 1024,
    maxBytesPerPartition: 4 * 1024 * 1024,
  };
}
