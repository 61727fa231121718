/**
 * A trigger's partitions under parallelizationFactor > 1: the state of each one it owns, built
 * from the group's commit (its offset and metadata) the first time a join hands it a batch of
 * the partition, and kept across a rejoin that finds the commit as this poller left it.
 */
import { partitionKey, type KafkaRecord } from '../event/record.ts';
import { eventRecordBytes } from '../event/event-size.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import type { WorkItem } from '../poller/work-plan.ts';
import { newestOf } from '../kafka/log-end.ts';
import { asCommitted, DEFAULT_METADATA_MAX_BYTES, decodeMetadata, windowFor } from './commit-metadata.ts';
import { orderingKeyOf, type OrderingKeyOf } from './key-scheduler.ts';
import { PartitionRun, type RunContext } from './partition-run.ts';
import { PartitionState, pendingOf, type Pending } from './partition-state.ts';

/** The group's commit of each partition of the topic, with its metadata (ClusterAdmin.committedWithMetadata). */
export type CommitReader = () => Promise<Map<number, { offset: number; metadata: string | null }>>;

export type ParallelContext = Omit<RunContext, 'metadataMaxBytes' | 'metadataTooLarge' | 'envelopeBytes'> & {
  readCommitted: CommitReader;
  envelopeBytes(partition: number): number;
  /** The brokers' offset.metadata.max.bytes (ClusterAdmin.offsetMetadataMaxBytes); undefined when they do not say. */
  readMetadataMaxBytes?: () => Promise<number | undefined>;
  /** Bytes the client adds to the metadata it sends: librdkafka's binding ends it with C's NUL. */
  metadataBytesAdded?: number;
  /** The member reads a partition the group never committed from the log end (starting-position.ts): its first fetch is committed at once. */
  uncommittedFromLatest?: boolean;
  /**
   * The partition's log end as kafka/log-end.ts's LogEnds answers it (`newestBelow`: the newest
   * timestamp of the batch's records below the offset in question). A fetch's high watermark may
   * trail for a moment after a leader change; ListOffsets's does not (KIP-207). Unset: the high watermark is believed.
   */
  readLogEnd?: (partition: number, newestBelow?: number) => Promise<number>;
};

export class ParallelPartitions {
  private readonly states = new Map<string, PartitionState>();
  /** The group's commits as one join found them: read once per join, for all its partitions. */
  private readonly reads = new Map<string, ReturnType<CommitReader>>();
  private metadataMaxBytes: number;
  /** The brokers' bound, read once before the first batch (Kafka's default until then, and if it cannot be read). */
  private bound: Promise<void> | undefined;

  constructor(private readonly c: ParallelContext) {
    this.metadataMaxBytes = DEFAULT_METADATA_MAX_BYTES - (c.metadataBytesAdded ?? 0);
  }

  /** Runs the fetched `records` of the batch (`work`: what planWork made of those not filtered out). */
  async process(batch: PartitionBatch, records: readonly KafkaRecord[], work: readonly WorkItem[], batchEnd: number): Promise<void> {
    await (this.bound ??= this.readBound());
    const state = await this.stateFor(batch);
    state.admit(records, verdicts(work, orderingKeyOf(this.c.trigger.ordering)), batchEnd, windowFor(this.metadataMaxBytes));
    const run = new PartitionRun(
      {
        ...this.c,
        envelopeBytes: this.c.envelopeBytes(batch.partition),
        metadataMaxBytes: () => this.metadataMaxBytes,
        metadataTooLarge: (refusedAt) => this.shrink(refusedAt),
      },
      batch,
      state,
    );
    await run.run();
  }

  /** A join assigned `partitions` of `topic`: the others are no longer this poller's. */
  keepOnly(topic: string, partitions: readonly number[]): void {
    const owned = new Set(partitions.map((p) => partitionKey(topic, p)));
    for (const key of this.states.keys()) if (!owned.has(key)) this.states.delete(key);
  }

  /** The partition's state for the batch's join: kept if the group's commit is still this poller's last one, else built from it. */
  private async stateFor(batch: PartitionBatch): Promise<PartitionState> {
    const key = partitionKey(batch.topic, batch.partition);
    let known = this.states.get(key);
    const logEnd = await this.logEndOf(batch, Math.max(known?.fetchedEnd ?? 0, known?.basis?.next ?? 0));
    if (known?.fetchedEnd !== undefined && logEnd < known.fetchedEnd) {
      // The log ends below what this poller fetched: the topic was deleted and created again, or an
      // unclean leader election truncated it. Its records are new: nothing this state knows holds.
      this.c.logger.warn('the partition\'s log ends below what this poller fetched: the topic was recreated or its log truncated; reading it as a new log', { partition: batch.partition, fetched: known.fetchedEnd, logEnd });
      this.states.delete(key);
      known = undefined;
    }
    if (known?.joinId === batch.joinId) return known;
    let { commit, read } = await this.committed(batch);
    // Only a group that holds no commit starts at the first fetch without committing it; a commit set
    // aside below (or not read) is overwritten by the first commit, at once, so a restart never resumes
    // there. Decided on the commit as read: once set aside, it would look like no commit at all.
    const uncommitted = read && commit === undefined && !this.c.uncommittedFromLatest;
    // A commit past the log's end is of a log that is gone (recreated, truncated): kafkajs reads this one from its start.
    if (commit && commit.offset > batch.highWatermark && (await this.logEndOf(batch, commit.offset)) < commit.offset) commit = undefined;
    // The group holds what this poller last knew it to hold (its own last commit, or still none):
    // nobody else moved it, and what this state knows holds (its retries, what it finished).
    const unchanged = commit ? known?.basis?.next === commit.offset && known.basis.metadata === commit.metadata : read && known?.neverCommitted;
    if (known && unchanged) {
      known.joinId = batch.joinId;
      return known;
    }
    const state = this.fromCommit(batch, commit, uncommitted);
    this.states.set(key, state);
    return state;
  }

  /** The log's end, asked of readLogEnd when the batch's high watermark is below `mark` (it may trail after a leader change). */
  private async logEndOf(batch: PartitionBatch, mark: number): Promise<number> {
    if (batch.highWatermark >= mark || !this.c.readLogEnd) return batch.highWatermark;
    // No answer: the high watermark is believed (what this state knew may run again; keeping it for
    // a log that really is new would skip that log's records).
    return this.c.readLogEnd(batch.partition, newestOf(batch.records, mark)).catch(() => batch.highWatermark);
  }

  /** The group's commit of the partition (`read`: false when it could not be read). */
  private async committed(batch: PartitionBatch): Promise<{ commit: { offset: number; metadata: string | null } | undefined; read: boolean }> {
    let read = this.reads.get(batch.joinId);
    if (!read) {
      this.reads.clear(); // an older join's reads say nothing now
      read = this.c.readCommitted();
      this.reads.set(batch.joinId, read);
    }
    try {
      const commit = (await read).get(batch.partition);
      return { commit: commit && { offset: commit.offset, metadata: asCommitted(commit.metadata) }, read: true };
    } catch (e) {
      this.reads.delete(batch.joinId);
      this.c.logger.warn('could not read the group\'s commit metadata: records its last owner finished beyond the committed offset are invoked again', { partition: batch.partition, error: e });
      return { commit: undefined, read: false };
    }
  }

  private fromCommit(batch: PartitionBatch, commit: { offset: number; metadata: string | null } | undefined, uncommitted: boolean): PartitionState {
    if (!commit) return new PartitionState(batch.joinId, undefined, [], null, uncommitted);
    const decoded = decodeMetadata(commit.metadata, commit.offset);
    const ids = { functionName: this.c.trigger.functionName, topic: batch.topic, partition: batch.partition, offset: commit.offset };
    if (decoded.kind === 'done') {
      const skipped = decoded.ranges.reduce((n, r) => n + r.until - r.from + 1, 0);
      this.c.logger.info(`the last owner finished ${skipped} record${skipped === 1 ? '' : 's'} beyond the committed offset: skipped`, { partition: batch.partition, committed: commit.offset });
      this.c.events.emit('poller.commit_metadata', { ...ids, kind: 'done', skipped });
      return new PartitionState(batch.joinId, commit.offset, decoded.ranges, commit.metadata);
    }
    if (decoded.kind === 'none') this.c.events.emit('poller.commit_metadata', { ...ids, kind: 'none', skipped: 0 });
    else {
      const reason = decoded.kind === 'malformed' ? decoded.reason : decoded.kind === 'stale' ? `written beside offset ${decoded.base}, not ${commit.offset}` : 'not written by Sluice';
      this.c.logger[decoded.kind === 'foreign' ? 'info' : 'warn'](`the committed offset's metadata is ${decoded.kind} (${reason}): ignored, so every record from the committed offset on is invoked`, { partition: batch.partition, committed: commit.offset });
      this.c.events.emit('poller.commit_metadata', { ...ids, kind: decoded.kind, skipped: 0, reason });
    }
    return new PartitionState(batch.joinId, commit.offset, [], commit.metadata);
  }

  private async readBound(): Promise<void> {
    const read = await this.c.readMetadataMaxBytes?.().catch(() => undefined);
    if (read === undefined) {
      this.c.logger.debug(`the brokers' offset.metadata.max.bytes could not be read: assuming Kafka's default, ${DEFAULT_METADATA_MAX_BYTES}`, {});
      return;
    }
    this.metadataMaxBytes = Math.max(0, read - (this.c.metadataBytesAdded ?? 0));
    if (read === DEFAULT_METADATA_MAX_BYTES) return;
    this.c.logger.info(`the brokers accept commit metadata of up to ${read} characters (offset.metadata.max.bytes; Kafka's default is ${DEFAULT_METADATA_MAX_BYTES}): done records beyond the committed offset are recorded within ${windowFor(this.metadataMaxBytes)} offsets`, {});
  }

  /** The broker refused metadata of `refusedAt` characters: its offset.metadata.max.bytes is lower than assumed. */
  private shrink(refusedAt: number): void {
    const before = this.metadataMaxBytes;
    this.metadataMaxBytes = Math.max(0, Math.min(before, refusedAt) >> 1);
    this.c.logger.warn(`the broker refused commit metadata of ${refusedAt} characters (offset.metadata.max.bytes is lower than ${before}): done records beyond the committed offset are now recorded within ${windowFor(this.metadataMaxBytes)} offsets`, {});
  }
}

/** What each record not filtered out becomes: a record to invoke, or one to give up on alone. */
function verdicts(work: readonly WorkItem[], keyOf: OrderingKeyOf): Map<number, Pending> {
  const out = new Map<number, Pending>();
  for (const item of work) {
    for (const record of item.records) {
      const giveUp = item.giveUp && { reason: item.giveUp, ...(item.error ? { error: item.error } : {}) };
      out.set(record.offset, giveUp ? pendingOf(record, item.bytes, giveUp, keyOf) : pendingOf(record, eventRecordBytes(record), undefined, keyOf));
    }
  }
  return out;
}
