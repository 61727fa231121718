/**
 * Reads each trigger's consumer group from its cluster (members, committed, log-start and
 * log-end offsets) and turns it into lag reports (lag-report.ts). Used by `npm run lag` and
 * `serverless sluice lag`.
 */
import type { TriggerSpec } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import { ClusterAdmin } from '../kafka/admin.ts';
import { createKafkaClient } from '../kafka/client.ts';
import { resolveTriggerSecurity } from '../kafka/security.ts';
import { groupByCluster } from '../poller/clusters.ts';
import type { Logger } from '../observe/logger.ts';
import { triggerLag, type TriggerLag } from './lag-report.ts';

export interface ReadLagOptions {
  triggers: TriggerSpec[];
  /** Brokers for triggers that name none: the local broker. */
  defaultBrokers?: string[];
  logger: Logger;
}

export async function readLag(o: ReadLagOptions): Promise<TriggerLag[]> {
  const brokersOf = (t: TriggerSpec): string[] => {
    const brokers = t.bootstrapServers ?? o.defaultBrokers;
    if (!brokers?.length) throw new ConfigError(`${t.path}: no brokers to read the group from; set bootstrapServers, custom.sluice.bootstrapServers or KAFKA_BROKERS, or start the local Kafka with \`npm start\`.`);
    return brokers;
  };
  // The group is read with the triggers' own credentials (accessConfigurations).
  const security = await resolveTriggerSecurity(o.triggers);
  const reports = new Map<TriggerSpec, TriggerLag>();
  for (const { brokers, triggers } of groupByCluster(o.triggers, brokersOf)) {
    const key = brokers.join(',');
    const admin = await ClusterAdmin.connect(createKafkaClient({ brokers, logger: o.logger, retries: 2, ...security.get(triggers[0]!) }), brokers);
    try {
      const missing = new Set(await admin.missingTopics([...new Set(triggers.map((t) => t.topic))]));
      for (const t of triggers) {
        if (missing.has(t.topic)) throw new ConfigError(`${t.path}.topic: topic "${t.topic}" does not exist on ${key}. Create it (npm start creates it on the local Kafka), or fix the topic name.`);
        const [group, offsets] = await Promise.all([admin.describeGroup(t.consumerGroupId), admin.groupOffsets(t.consumerGroupId, t.topic)]);
        reports.set(t, triggerLag({ functionName: t.functionName, topic: t.topic, groupId: t.consumerGroupId, brokers, startingPosition: t.startingPosition, group }, offsets));
      }
    } finally {
      await admin.disconnect();
    }
  }
  return o.triggers.map((t) => reports.get(t)!);
}
