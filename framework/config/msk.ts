/**
 * Pure: Amazon MSK names. A trigger that names its cluster with `arn` (the Serverless
 * Framework's `msk` event's property, AWS's EventSourceArn) reads an MSK cluster, and with no
 * SASL secret and no client certificate it authenticates with IAM, as AWS's MSK event source
 * mapping does when no SourceAccessConfigurations are given. The cluster ARN also yields the
 * region the IAM token is signed for and the topic and group ARNs the task role is scoped to.
 */

/** `arn:<partition>:kafka:<region>:<account>:cluster/<name>/<uuid>` (provisioned and serverless alike). */
export const MSK_CLUSTER_ARN_PATTERN = '^arn:aws[a-z-]*:kafka:[a-z0-9-]+:[0-9]{12}:cluster/[A-Za-z0-9-]+/[A-Za-z0-9-]+$';
const EXAMPLE = 'arn:aws:kafka:eu-west-1:123456789012:cluster/orders/0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0-2';

export const mskArnSchema = {
  $comment: 'AWS: EventSourceArn',
  description:
    `arn is the Amazon MSK cluster's ARN, as on the msk event, e.g. ${EXAMPLE}; the trigger then reads that cluster, ` +
    'with IAM unless accessConfigurations names a SASL secret or a client certificate, and its event says aws:kafka.',
  type: 'string',
  pattern: MSK_CLUSTER_ARN_PATTERN,
} as const;

export interface MskClusterArn {
  arn: string;
  partition: string;
  region: string;
  account: string;
  name: string;
  uuid: string;
}

export function parseMskClusterArn(arn: string): MskClusterArn | undefined {
  const m = /^arn:(aws[a-z-]*):kafka:([a-z0-9-]+):([0-9]{12}):cluster\/([A-Za-z0-9-]+)\/([A-Za-z0-9-]+)$/.exec(arn);
  if (!m) return undefined;
  return { arn, partition: m[1]!, region: m[2]!, account: m[3]!, name: m[4]!, uuid: m[5]! };
}

/** MSK broker hosts end in `.kafka.<region>.amazonaws.com` (`.kafka-serverless.` for MSK Serverless; `.com.cn` in China). */
const MSK_HOST = /\.kafka(?:-serverless)?\.([a-z]{2}(?:-[a-z]+)+-\d+)\.amazonaws\.com(?:\.cn)?$/;

export function regionOfMskHost(broker: string): string | undefined {
  const host = broker.replace(/:\d+$/, '').toLowerCase();
  return MSK_HOST.exec(host)?.[1];
}

/**
 * The region an IAM token is signed for: the cluster ARN's, else the first MSK broker host's,
 * else AWS_REGION (then AWS_DEFAULT_REGION); undefined when none says.
 */
export function mskRegion(o: { clusterArn?: string | undefined; brokers: readonly string[]; env: Readonly<Record<string, string | undefined>> }): string | undefined {
  const fromArn = o.clusterArn === undefined ? undefined : parseMskClusterArn(o.clusterArn)?.region;
  if (fromArn) return fromArn;
  for (const b of o.brokers) {
    const r = regionOfMskHost(b);
    if (r) return r;
  }
  return o.env['AWS_REGION']?.trim() || o.env['AWS_DEFAULT_REGION']?.trim() || undefined;
}

/** IAM resource ARNs of a cluster's topics and groups (`topic/<cluster>/<uuid>/<name>`, `group/…`). */
export function mskTopicArn(c: MskClusterArn, topic: string): string {
  return `arn:${c.partition}:kafka:${c.region}:${c.account}:topic/${c.name}/${c.uuid}/${topic}`;
}

export function mskGroupArn(c: MskClusterArn, groupId: string): string {
  return `arn:${c.partition}:kafka:${c.region}:${c.account}:group/${c.name}/${c.uuid}/${groupId}`;
}
