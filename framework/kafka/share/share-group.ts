/**
 * A share group as `status` and `lag` show it: its state and members with their partitions
 * (ShareGroupDescribe), and per partition of the trigger's topic the start offset (every record
 * below it acknowledged for good) and the lag the broker counts: records from there to the log end
 * not acknowledged yet, those in flight included (DescribeShareGroupOffsets v1).
 */
import type { GroupMembers, GroupPartitionOffsets } from '../admin-port.ts';
import { describeShareGroupOffsets, shareGroupDescribe } from './group-messages.ts';
import type { ShareTransport } from './transport.ts';

export interface SharePartitionLag extends GroupPartitionOffsets {
  /** The broker's count; for a partition with no state yet, what the group would read from where it starts. */
  lag: number | null;
}

export async function readShareGroup(
  transport: ShareTransport, groupId: string, topic: string, logs: ReadonlyArray<{ partition: number; logStart: number; logEnd: number }>, startsAt: 'earliest' | 'latest',
): Promise<{ group: GroupMembers; partitions: SharePartitionLag[] }> {
  const [described, offsets] = await Promise.all([
    transport.send({ coordinatorOf: groupId }, shareGroupDescribe(groupId)),
    transport.send({ coordinatorOf: groupId }, describeShareGroupOffsets(groupId, topic)),
  ]);
  // GROUP_ID_NOT_FOUND (69): no member has joined yet; anything else is the broker's to explain.
  for (const answer of [described, offsets]) {
    if (answer.errorCode !== 0 && answer.errorCode !== 69) throw new Error(`share group "${groupId}": the coordinator answered ${answer.errorCode}${answer.errorMessage ? ` (${answer.errorMessage})` : ''}`);
  }
  const byPartition = new Map(offsets.partitions.filter((p) => p.errorCode === 0).map((p) => [p.partition, p]));
  // A partition the coordinator could not read (loading, moving) is not known, not empty: no lag for it.
  const unreadable = new Set(offsets.partitions.filter((p) => p.errorCode !== 0).map((p) => p.partition));
  const partitions = [...logs].sort((a, b) => a.partition - b.partition).map((l) => {
    if (unreadable.has(l.partition)) return { partition: l.partition, committed: -1, logStart: l.logStart, logEnd: l.logEnd, lag: null };
    const o = byPartition.get(l.partition);
    const noState = !o || o.startOffset < 0;
    const lag = !noState && o.lag >= 0 ? o.lag : noState ? (startsAt === 'earliest' ? l.logEnd - l.logStart : 0) : null;
    return { partition: l.partition, committed: noState ? -1 : o.startOffset, logStart: l.logStart, logEnd: l.logEnd, lag };
  });
  const group: GroupMembers = {
    state: described.errorCode === 69 ? 'Dead' : described.state, protocolType: 'share', type: 'share', protocol: described.assignor,
    members: described.members.map((m) => ({ memberId: m.memberId, clientId: m.clientId, clientHost: m.clientHost, assignment: m.assignment })),
  };
  return { group, partitions };
}
