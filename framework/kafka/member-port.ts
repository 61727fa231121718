/**
 * The port every engine's consumer-group member stands behind (kafkajs's group-member.ts,
 * rdkafka/member.ts): the per-partition batches the poller runs, commits exactly and pauses, the
 * options a member is made with, and the member itself. No engine's type appears here.
 */
import type { KafkaRecord } from '../event/record.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';

export type CommitResult = { ok: true } | { ok: false; reason: 'not-owned' | 'refused' | 'metadata-too-large'; error?: Error };

export interface PartitionBatch {
  readonly topic: string;
  readonly partition: number;
  readonly records: KafkaRecord[];
  /** Offset of the next record to be written to the partition. */
  readonly highWatermark: number;
  /** When the fetch that returned these records completed, or earlier, never later (epoch ms): the poll-interval budget starts here. */
  readonly fetchedAt: number;
  /**
   * Keeps the session alive (sent when due: at most one a heartbeatIntervalMs, also while a
   * rebalance waits for this member); a rebalance it learns of makes isActive() false instead of throwing.
   */
  heartbeat(): Promise<void>;
  /**
   * This member's join that fetched the batch (member id and generation): what it knew of the
   * group's commits holds while this stays the same.
   */
  readonly joinId: string;
  /**
   * Commits `nextOffset` for this partition, if the member still owns it and the coordinator
   * accepts; kafkajs then fetches on from it. With `metadata` (parallelizationFactor > 1) the
   * commit carries it and the fetch position is left alone (fetchFrom sets it); a broker that
   * finds the metadata too long answers `metadata-too-large`, which is no rebalance.
   */
  commit(nextOffset: number, metadata?: { metadata: string | null }): Promise<CommitResult>;
  /** Where kafkajs fetches this partition next (any offset, also one it fetched before). */
  fetchFrom(offset: number): void;
  /** False once the member is stopping, the partition was re-seeked, or a rebalance began. */
  isActive(): boolean;
  /** Stops fetching this partition for `ms`, then resumes it (records are fetched again from the last commit). */
  pauseFor(ms: number): void;
  /**
   * Unless another batch of this partition begins within `ms`, the partition fetches from `offset`
   * then (the member still owning it): work held in memory that no new record would bring back a
   * batch for, since a log may end in transaction markers or aborted records, which no engine
   * hands over. A later call, or a batch that begins, replaces it.
   */
  fetchFromLater(offset: number, ms: number): void;
}

export interface MemberOptions {
  groupId: string;
  topic: string;
  /** Read a partition the group never committed from its first record (else kafkajs's log end, in memory). */
  fromBeginning: boolean;
  sessionTimeoutMs: number;
  rebalanceTimeoutMs: number;
  heartbeatIntervalMs: number;
  /** How long the broker may hold a fetch open waiting for `minBytes`. */
  maxWaitTimeMs: number;
  minBytes: number;
  maxBytesPerPartition: number;
  /** Partitions processed at the same time. */
  concurrency: number;
  logger: Logger;
  events: Instrumentation;
  onBatch(batch: PartitionBatch): Promise<void>;
  /** The consumer stopped for good; this member will not consume again. */
  onCrash(error: Error): void;
  /** A batch was processed to its end (the member is doing useful work). */
  onProgress?(): void;
  /**
   * The partition's log end as kafka/log-end.ts's LogEnds answers it (`newestBelow`: the newest
   * timestamp of the batch's records below the offset in question): a fetch's high watermark may
   * trail the last one's for a moment after a leader change, ListOffsets's does not (KIP-207). Unset: believed.
   */
  readLogEnd?: (topic: string, partition: number, newestBelow?: number) => Promise<number>;
}

export interface GroupMember {
  start(): Promise<void>;
  /**
   * Lets in-flight batches finish, then leaves the group (after a crash: waits for the batches
   * kafkajs left running). With `deadlineAt` (epoch ms), a batch still running then is left
   * behind: the member leaves the group without it, and nothing it finishes is committed.
   */
  stop(deadlineAt?: number): Promise<void>;
  /** The id this member last joined with, if it ever joined. */
  memberId(): string | undefined;
}
