/**
 * Runs `work` while heartbeating the group every `intervalMs` from the poller's thread: whatever
 * the work waits on (a handler in its worker, a destination that does not answer), the member
 * is never silent. kafkajs sends a heartbeat only once `intervalMs` has passed since the last
 * one was answered, so a timer at the same period would find it not yet due every other tick
 * and halve the rate: the timer ticks four times as often (a send is then at most a quarter
 * interval late; a tick that finds none due costs nothing). The timer is always cleared.
 */
import type { PartitionBatch } from '../kafka/member-port.ts';

/** What keeps a member alive while work runs: a batch's heartbeat (queue mode's member heartbeats on its own: a no-op). */
export type KeepAlive = Pick<PartitionBatch, 'heartbeat' | 'partition'>;
import type { Logger } from '../observe/logger.ts';

export async function withHeartbeats<T>(batch: KeepAlive, intervalMs: number, logger: Logger, work: () => Promise<T>): Promise<T> {
  const timer = setInterval(() => {
    batch.heartbeat().catch((e: unknown) => logger.warn('heartbeat failed', { partition: batch.partition, error: e }));
  }, Math.max(50, Math.floor(intervalMs / 4)));
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}
