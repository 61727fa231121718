/**
 * AT_TIMESTAMP for a group that has never committed: before the member joins, the group's
 * offsets are set to the first record at or after the timestamp. Partitions that already
 * have a committed offset keep it (a restart resumes, it never rewinds). kafkajs handles
 * TRIM_HORIZON and LATEST itself (fromBeginning).
 */
import type { TriggerSpec } from '../config/types.ts';
import type { ClusterAdmin } from '../kafka/admin.ts';
import type { Logger } from '../observe/logger.ts';

export async function applyStartingPosition(admin: ClusterAdmin, trigger: TriggerSpec, logger: Logger): Promise<void> {
  if (trigger.startingPosition !== 'AT_TIMESTAMP' || trigger.startingPositionTimestampMs === undefined) return;
  const current = await admin.offsets(trigger.consumerGroupId, trigger.topic);
  const fresh = new Set(current.filter((p) => p.committed < 0).map((p) => p.partition));
  if (fresh.size === 0) return;
  const targets = (await admin.offsetsForTimestamp(trigger.topic, trigger.startingPositionTimestampMs)).filter((p) => fresh.has(p.partition));
  try {
    await admin.setGroupOffsets(trigger.consumerGroupId, trigger.topic, targets);
    logger.info('starting at timestamp', { timestamp: new Date(trigger.startingPositionTimestampMs).toISOString(), offsets: targets });
  } catch (e) {
    // Another member already runs the group, so it already has a position.
    logger.debug('group is active; keeping its position', { error: e });
  }
}
