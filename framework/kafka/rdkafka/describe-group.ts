/**
 * A KIP-848 group described by librdkafka. kafkajs speaks only the classic DescribeGroups, and
 * Kafka answers it for a group on the consumer protocol as if the group did not exist: state
 * `Dead`, no members (seen on Kafka 4.4 with a librdkafka member running). librdkafka's admin
 * client sends ConsumerGroupDescribe for such a group: its members, their static instance ids
 * and the partitions each has now.
 */
import type { GroupMembers } from '../admin-port.ts';
import { loadRdkafka } from './client.ts';

/** The binding's numbering of group states (ConsumerGroupStates), as the classic API names them. */
const STATES = ['Unknown', 'PreparingRebalance', 'CompletingRebalance', 'Stable', 'Dead', 'Empty'];

/** The installed binding, or undefined: status still works (as kafkajs sees it) without it. */
function binding(): ReturnType<typeof loadRdkafka> | undefined {
  try {
    return loadRdkafka('sluice status');
  } catch {
    return undefined;
  }
}

/**
 * The group as the consumer protocol describes it, or undefined when the binding is not
 * installed or the group is not a consumer-protocol group. `config` adds the connection's
 * security settings (librdkafka names).
 */
export async function describeConsumerGroup(brokers: string[], groupId: string, config: Record<string, unknown> = {}, timeoutMs = 10_000): Promise<GroupMembers | undefined> {
  const rdkafka = binding();
  if (!rdkafka) return undefined;
  const admin = rdkafka.AdminClient.create({ 'bootstrap.servers': brokers.join(','), 'client.id': 'sluice-status', ...config } as never);
  try {
    const { groups } = await new Promise<{ groups: Array<Record<string, unknown>> }>((resolve, reject) =>
      admin.describeGroups([groupId], { timeout: timeoutMs }, (err, result) => (err ? reject(err) : resolve(result as never))),
    );
    return toGroupMembers(groups[0]);
  } finally {
    admin.disconnect();
  }
}

/** Pure: the binding's description -> GroupMembers; undefined unless it is a consumer-protocol group (type 1). */
export function toGroupMembers(g: Record<string, unknown> | undefined): GroupMembers | undefined {
  if (!g || g.error || g.type !== 1) return undefined;
  const members = (g.members as Array<{ memberId: string; clientId: string; clientHost: string; groupInstanceId?: string; assignment?: { topicPartitions?: Array<{ topic: string; partition: number }> } }>) ?? [];
  return {
    state: STATES[g.state as number] ?? 'Unknown',
    protocolType: String(g.protocolType ?? 'consumer'),
    type: 'consumer',
    protocol: String(g.partitionAssignor ?? g.protocol ?? ''),
    members: members.map((m) => {
      const assignment: Record<string, number[]> = {};
      for (const tp of m.assignment?.topicPartitions ?? []) (assignment[tp.topic] ??= []).push(tp.partition);
      for (const ps of Object.values(assignment)) ps.sort((a, b) => a - b);
      return { memberId: m.memberId, clientId: m.clientId, clientHost: m.clientHost, assignment, ...(m.groupInstanceId ? { groupInstanceId: m.groupInstanceId } : {}) };
    }),
  };
}
