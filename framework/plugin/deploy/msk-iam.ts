/**
 * Pure: the task role's `kafka-cluster:*` statements for triggers that read an MSK cluster with
 * IAM, scoped to the ARNs derived from each cluster ARN (config/msk.ts): the cluster, the
 * triggers' topics and groups, and a `kafka://` destination's topic. Only what the poller does:
 * - consume: Connect and DescribeCluster on the cluster; DescribeTopic and ReadData on the
 *   topic (metadata, ListOffsets, Fetch); DescribeGroup and AlterGroup on the group
 *   (FindCoordinator, OffsetFetch, JoinGroup, SyncGroup, Heartbeat, OffsetCommit, LeaveGroup);
 * - a `kafka://` destination: DescribeTopic and WriteData on its topic, DescribeTopicDynamicConfiguration
 *   (the destination reads the topic's max.message.bytes), and WriteDataIdempotently on the
 *   cluster (Sluice's producer is idempotent: InitProducerId needs it).
 * Nothing else: no wildcard, no topic or group the triggers do not name.
 */
import { mskGroupArn, mskTopicArn, parseMskClusterArn, type MskClusterArn } from '../../config/msk.ts';
import type { TriggerSpec } from '../../config/types.ts';
import { ConfigError } from '../../errors.ts';
import type { Statement } from './iam.ts';

export function mskIamStatements(triggers: readonly TriggerSpec[]): Statement[] {
  const clusters: string[] = [];
  const topics: string[] = [];
  const groups: string[] = [];
  const writeClusters: string[] = [];
  const destinations: string[] = [];
  for (const t of triggers) {
    if (!t.enabled || !t.access?.iam) continue;
    const cluster = clusterOf(t);
    if (t.consumerGroupId.includes('*')) {
      throw new ConfigError(
        `${t.path}.consumerGroupId: "${t.consumerGroupId}" holds "*", which IAM reads as a wildcard in the task role's group ARN, so the poller could join other groups. ` +
          'Choose a consumerGroupId without "*".',
      );
    }
    clusters.push(cluster.arn);
    topics.push(mskTopicArn(cluster, t.topic));
    groups.push(mskGroupArn(cluster, t.consumerGroupId));
    const d = t.failure.onFailure;
    if (d?.kind === 'kafka') {
      writeClusters.push(cluster.arn);
      destinations.push(mskTopicArn(cluster, d.topic));
    }
  }
  if (clusters.length === 0) return [];
  const statement = (Sid: string, Action: string[], Resource: string[]): Statement => ({ Sid, Effect: 'Allow', Action, Resource: unique(Resource) });
  return [
    statement('MskConnect', ['kafka-cluster:Connect', 'kafka-cluster:DescribeCluster'], clusters),
    statement('MskReadTopics', ['kafka-cluster:DescribeTopic', 'kafka-cluster:ReadData'], topics),
    statement('MskConsumerGroups', ['kafka-cluster:AlterGroup', 'kafka-cluster:DescribeGroup'], groups),
    ...(destinations.length === 0
      ? []
      : [
          statement('MskWriteDestinations', ['kafka-cluster:DescribeTopic', 'kafka-cluster:DescribeTopicDynamicConfiguration', 'kafka-cluster:WriteData'], destinations),
          statement('MskIdempotentWrites', ['kafka-cluster:WriteDataIdempotently'], writeClusters),
        ]),
  ];
}

function clusterOf(t: TriggerSpec): MskClusterArn {
  const arn = t.access?.iam?.clusterArn;
  const cluster = arn === undefined ? undefined : parseMskClusterArn(arn);
  // A sluice trigger reaches IAM only through its arn, which the schema checked.
  if (cluster === undefined) throw new Error(`${t.path}: MSK IAM without a cluster ARN (${String(arn)}) cannot be scoped.`);
  return cluster;
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}
