/**
 * Reads each trigger's consumer group from its cluster (members, committed, log-start and
 * log-end offsets) and turns it into lag reports (lag-report.ts); `status` adds the group's
 * coordinator (status-report.ts). Used by `npm run lag|status` and `serverless sluice lag|status`.
 * It reads only from the brokers, with each trigger's own credentials.
 */
import type { TriggerSpec } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { ClusterAdmin } from '../kafka/admin.ts';
import { createKafkaClient } from '../kafka/client.ts';
import { resolveTriggerSecurity } from '../kafka/security.ts';
import { groupByCluster } from '../poller/clusters.ts';
import type { Logger } from '../observe/logger.ts';
import { triggerLag, type TriggerLag } from './lag-report.ts';
import type { TriggerStatus } from './status-report.ts';

export interface ReadLagOptions {
  triggers: TriggerSpec[];
  /** Brokers for triggers that name none: the local broker. */
  defaultBrokers?: string[];
  logger: Logger;
}

export function readLag(o: ReadLagOptions): Promise<TriggerLag[]> {
  return readGroups(o, (admin, t, brokers) => lagOf(admin, t, brokers));
}

export function readStatus(o: ReadLagOptions): Promise<TriggerStatus[]> {
  return readGroups(o, async (admin, t, brokers) => {
    const coordinator = await admin.coordinator(t.consumerGroupId);
    return { ...(await lagOf(admin, t, brokers)), coordinator };
  });
}

async function lagOf(admin: ClusterAdmin, t: TriggerSpec, brokers: string[]): Promise<TriggerLag> {
  const [group, offsets] = await Promise.all([admin.describeGroup(t.consumerGroupId), admin.groupOffsets(t.consumerGroupId, t.topic)]);
  return triggerLag({ functionName: t.functionName, topic: t.topic, groupId: t.consumerGroupId, brokers, startingPosition: t.startingPosition, group }, offsets);
}

/** One admin client per cluster; `read` runs for each trigger, in the triggers' order. */
async function readGroups<R>(o: ReadLagOptions, read: (admin: ClusterAdmin, t: TriggerSpec, brokers: string[]) => Promise<R>): Promise<R[]> {
  const brokersOf = (t: TriggerSpec): string[] => {
    const brokers = t.bootstrapServers ?? o.defaultBrokers;
    if (!brokers?.length) throw new ConfigError(`${t.path}: no brokers to read the group from; set bootstrapServers, custom.sluice.bootstrapServers or KAFKA_BROKERS, or start the local Kafka with \`npm start\`.`);
    return brokers;
  };
  const security = await resolveTriggerSecurity(o.triggers);
  const reports = new Map<TriggerSpec, R>();
  for (const { brokers, triggers } of groupByCluster(o.triggers, brokersOf)) {
    const admin = await ClusterAdmin.connect(createKafkaClient({ brokers, logger: o.logger, retries: 2, ...security.get(triggers[0]!) }), brokers);
    try {
      const missing = new Set(await admin.missingTopics([...new Set(triggers.map((t) => t.topic))]));
      for (const t of triggers) {
        if (missing.has(t.topic)) throw new ConfigError(`${t.path}.topic: topic "${t.topic}" does not exist on ${brokers.join(',')}. Create it (npm start creates it on the local Kafka), or fix the topic name.`);
        reports.set(t, await read(admin, t, brokers));
      }
    } finally {
      await admin.disconnect();
    }
  }
  return o.triggers.map((t) => reports.get(t)!);
}
