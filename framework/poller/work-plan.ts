/**
 * Pure: turns one partition's fetched records into the queue of work the poller goes
 * through: records that match no filter pattern are left out (they are committed over),
 * a set being retried comes first exactly as it failed, the rest is cut by planChunks.
 */
import { planChunks, type ChunkLimits } from '../chunking/chunker.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { FailureReason } from '../failure/policy.ts';

export interface WorkItem {
  records: KafkaRecord[];
  /** Failed invocations of exactly this set so far. */
  attempts: number;
  /** Set when the policy already gave up on these records: send them to the destination. */
  giveUp?: FailureReason;
  /** Event bytes of the chunk (or of the record alone, for PayloadTooLarge). */
  bytes: number;
  error?: string;
}

/** A failing set the poller comes back to after a backoff (the partition is fetched again from `from`). */
export interface PendingSet {
  from: number;
  until: number;
  attempts: number;
  giveUp?: FailureReason;
  error?: string;
  /** Failed sends to the destination in a row. */
  sendFailures: number;
}

export function planWork(records: readonly KafkaRecord[], matches: (r: KafkaRecord) => boolean, limits: ChunkLimits, pending: PendingSet | undefined): WorkItem[] {
  const wanted = records.filter(matches);
  const work: WorkItem[] = [];
  let rest = wanted;
  if (pending && records[0]?.offset === pending.from) {
    const again = wanted.filter((r) => r.offset <= pending.until);
    rest = wanted.filter((r) => r.offset > pending.until);
    if (again.length) {
      work.push({ records: again, attempts: pending.attempts, bytes: 0, ...(pending.giveUp ? { giveUp: pending.giveUp } : {}), ...(pending.error ? { error: pending.error } : {}) });
    }
  }
  for (const step of planChunks(rest, limits)) {
    work.push(step.kind === 'chunk' ? { records: step.records, attempts: 0, bytes: step.bytes } : { records: [step.record], attempts: 0, bytes: step.bytes, giveUp: 'PayloadTooLarge' });
  }
  return work;
}
