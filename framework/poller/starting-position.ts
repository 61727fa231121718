/**
 * Where a group that has never committed starts, written down before the first member joins.
 *
 * LATEST and AT_TIMESTAMP are positions of a moment: the log end now, the first record at or
 * after a time. kafkajs would resolve LATEST in memory only, each time a member is assigned a
 * partition the group never committed, so a restart, a deploy or a rebalance that moved a quiet
 * partition started it at the log end of that later moment and skipped what arrived in between.
 * So both are committed as the group's offsets once, for the partitions that have none, as AWS
 * starts a new mapping at that position once. Every member then consumes from the beginning of
 * what is uncommitted (`fromBeginning`), which is also where a partition added to the topic later,
 * or an offset out of range (deleted by retention), resumes: nothing still in the log is skipped.
 * Partitions that already have a committed offset keep it (a restart resumes, it never rewinds).
 */
import type { TriggerSpec } from '../config/types.ts';
import type { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import type { Logger } from '../observe/logger.ts';

/**
 * Where this trigger's members read a partition the group has not committed: `earliest` once its
 * starting position is committed (or it is TRIM_HORIZON); `latest` for a LATEST trigger whose
 * group already had running members with partitions never committed (an older Sluice's: their
 * position was never written, and reading them from their first record would replay the topic).
 */
export type UncommittedFrom = 'earliest' | 'latest';

/** Commits a group's first offsets; false (nothing written) when the group runs members already. */
export type CommitStart = (groupId: string, topic: string, partitions: Array<{ partition: number; offset: number }>) => Promise<boolean>;

/**
 * `commit`: how the offsets are written; by default kafkajs's admin (which joins the group as a
 * classic member for it), for a librdkafka trigger a commit as no member (rdkafka/commit-offsets.ts).
 */
export async function applyStartingPosition(admin: ClusterAdmin, trigger: TriggerSpec, logger: Logger, commit: CommitStart = (g, t, p) => admin.setGroupOffsets(g, t, p)): Promise<UncommittedFrom> {
  if (trigger.startingPosition === 'TRIM_HORIZON') return 'earliest';
  const current = await admin.offsets(trigger.consumerGroupId, trigger.topic);
  const fresh = current.filter((p) => p.committed < 0);
  if (fresh.length === 0) return 'earliest';
  const at = trigger.startingPositionTimestampMs;
  const targets =
    trigger.startingPosition === 'AT_TIMESTAMP' && at !== undefined
      ? (await admin.offsetsForTimestamp(trigger.topic, at)).filter((p) => fresh.some((f) => f.partition === p.partition))
      : fresh.map((p) => ({ partition: p.partition, offset: p.logEnd }));
  // Read back: librdkafka's commit only says it was queued, and a group that runs members refuses
  // a commit from no member partition by partition.
  const written = async () => {
    const now = await admin.offsets(trigger.consumerGroupId, trigger.topic);
    return targets.every((t) => now.find((p) => p.partition === t.partition)?.committed === t.offset);
  };
  if ((await commit(trigger.consumerGroupId, trigger.topic, targets)) && (await written())) {
    const where = at !== undefined ? `timestamp ${new Date(at).toISOString()}` : 'the log end (LATEST)';
    logger.info(`starting at ${where}: the group's first offsets are committed`, { offsets: targets });
    return 'earliest';
  }
  // Another member runs the group already: it wrote them before it joined, unless it is older than this.
  const left = (await admin.offsets(trigger.consumerGroupId, trigger.topic)).filter((p) => p.committed < 0).map((p) => p.partition);
  if (left.length === 0) return 'earliest';
  const from = trigger.startingPosition === 'LATEST' ? 'latest' : 'earliest';
  logger.warn(
    `the group has running members, so its starting position could not be committed; partitions ${left.join(', ')} have none and are read from ${from === 'latest' ? 'the log end whenever a member is assigned them, as before' : 'their first record'} ` +
      '(once every member runs this version and one commits, this no longer applies)',
  );
  return from;
}
