/**
 * Reads each trigger's consumer group from its cluster (members, committed, log-start and
 * log-end offsets; a queue trigger's share group: members, start offsets and the broker's lag) and
 * turns it into lag reports (lag-report.ts); `status` adds the group's
 * coordinator (status-report.ts). Used by `npm run lag|status` and `serverless sluice lag|status`.
 * It reads only from the brokers, with each trigger's own credentials.
 */
import type { TriggerSpec } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import type { GroupMembers } from '../kafka/admin-port.ts';
import { createKafkaClient } from '../kafka/kafkajs/client.ts';
import { kafkajsShareTransport } from '../kafka/kafkajs/share-transport.ts';
import { readShareGroup } from '../kafka/share/share-group.ts';
import type { ShareTransport } from '../kafka/share/transport.ts';
import { describeConsumerGroup } from '../kafka/rdkafka/describe-group.ts';
import { rdkafkaSecurityConfig } from '../kafka/rdkafka/security.ts';
import { resolveTriggerSecurity, type KafkaSecurity } from '../kafka/security.ts';
import { groupByCluster } from '../poller/clusters.ts';
import type { Logger } from '../observe/logger.ts';
import { triggerLag, withDoneBeyond, type TriggerLag } from './lag-report.ts';
import { readInFlight } from './poller-metrics.ts';
import type { TriggerStatus } from './status-report.ts';
import { commandLine } from '../front-door.ts';

export interface ReadLagOptions {
  triggers: TriggerSpec[];
  /** Brokers for triggers that name none: the local broker. */
  defaultBrokers?: string[];
  logger: Logger;
}

export function readLag(o: ReadLagOptions): Promise<TriggerLag[]> {
  return readGroups(o, lagOf);
}

/**
 * `pollerMetrics`: the local poller's /metrics, asked for the invocations in flight per partition
 * of triggers with parallelizationFactor > 1 (poller-metrics.ts); the brokers cannot tell.
 */
export async function readStatus(o: ReadLagOptions & { pollerMetrics?: string }): Promise<TriggerStatus[]> {
  const parallel = o.pollerMetrics !== undefined && o.triggers.some((t) => t.parallelizationFactor > 1);
  const inFlight = parallel ? await readInFlight(o.pollerMetrics!) : undefined;
  return readGroups(o, async (admin, t, brokers, security, share) => {
    const coordinator = await admin.coordinator(t.consumerGroupId);
    const report: TriggerStatus = { ...(await lagOf(admin, t, brokers, security, share)), coordinator };
    if (!inFlight || !(t.parallelizationFactor > 1)) return report;
    if (!(inFlight instanceof Map)) return { ...report, inFlight: inFlight };
    return { ...report, inFlight: Object.fromEntries(report.partitions.map((p) => [p.partition, inFlight.get(`${t.functionName}|${t.topic}|${p.partition}`) ?? 0])) };
  });
}

async function lagOf(admin: ClusterAdmin, t: TriggerSpec, brokers: string[], security: KafkaSecurity, share: () => ShareTransport): Promise<TriggerLag> {
  if (t.consumptionMode === 'queue') {
    const logs = await admin.topicOffsets(t.topic);
    const { group, partitions } = await readShareGroup(share(), t.consumerGroupId, t.topic, logs, t.startingPosition === 'LATEST' ? 'latest' : 'earliest');
    return { functionName: t.functionName, topic: t.topic, groupId: t.consumerGroupId, brokers, startingPosition: t.startingPosition, group, partitions, totalLag: partitions.reduce((n, p) => n + (p.lag ?? 0), 0) };
  }
  const [classic, offsets] = await Promise.all([admin.describeGroup(t.consumerGroupId), admin.groupOffsets(t.consumerGroupId, t.topic)]);
  const group = (await consumerProtocolGroup(classic, t, brokers, security)) ?? classic;
  return triggerLag({ functionName: t.functionName, topic: t.topic, groupId: t.consumerGroupId, brokers, startingPosition: t.startingPosition, group }, offsets.map(withDoneBeyond));
}

/**
 * Kafka answers kafkajs's classic DescribeGroups for a group on the consumer protocol (KIP-848,
 * engine librdkafka) with `Dead` and no members; librdkafka's ConsumerGroupDescribe has them.
 * Asked only then, with the trigger's own credentials.
 */
async function consumerProtocolGroup(classic: GroupMembers, t: TriggerSpec, brokers: string[], security: KafkaSecurity): Promise<GroupMembers | undefined> {
  if (classic.state !== 'Dead' || classic.members.length > 0) return undefined;
  return describeConsumerGroup(brokers, t.consumerGroupId, rdkafkaSecurityConfig(security));
}

/** One admin client per cluster (and the share client on its connections, for queue triggers); `read` runs for each trigger, in the triggers' order. */
async function readGroups<R>(o: ReadLagOptions, read: (admin: ClusterAdmin, t: TriggerSpec, brokers: string[], security: KafkaSecurity, share: () => ShareTransport) => Promise<R>): Promise<R[]> {
  const brokersOf = (t: TriggerSpec): string[] => {
    const brokers = t.bootstrapServers ?? o.defaultBrokers;
    if (!brokers?.length) throw new ConfigError(`${t.path}: no brokers to read the group from; set bootstrapServers, custom.sluice.bootstrapServers or KAFKA_BROKERS, or start the local Kafka with \`${commandLine('start')}\`.`);
    return brokers;
  };
  const security = await resolveTriggerSecurity(o.triggers);
  const reports = new Map<TriggerSpec, R>();
  for (const { brokers, triggers } of groupByCluster(o.triggers, brokersOf)) {
    const kafka = createKafkaClient({ brokers, logger: o.logger, retries: 2, ...security.get(triggers[0]!) });
    const admin = await ClusterAdmin.connect(kafka, brokers);
    let transport: ShareTransport | undefined;
    const share = () => (transport ??= kafkajsShareTransport(kafka));
    try {
      const missing = new Set(await admin.missingTopics([...new Set(triggers.map((t) => t.topic))]));
      for (const t of triggers) {
        if (missing.has(t.topic)) throw new ConfigError(`${t.path}.topic: topic "${t.topic}" does not exist on ${brokers.join(',')}. Create it (${commandLine('start')} creates it on the local Kafka), or fix the topic name.`);
        reports.set(t, await read(admin, t, brokers, security.get(t) ?? {}, share));
      }
    } finally {
      await transport?.close().catch(() => undefined);
      await admin.disconnect();
    }
  }
  return o.triggers.map((t) => reports.get(t)!);
}
