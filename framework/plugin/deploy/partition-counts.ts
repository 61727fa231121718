/**
 * The partition count of each enabled trigger's topic, read from its brokers at package time, to
 * check scaling.maxTasks (./scaling.ts). Only loaded when scaling is set: packaging otherwise
 * never loads kafkajs. Brokers that cannot be reached from where `serverless package` runs (an
 * MSK cluster inside a VPC) are expected: the caller then warns instead of checking. A topic
 * that does not exist yet is left out, with a warning.
 */
import type { TriggerSpec } from '../../config/types.ts';
import type { Logger } from '../../observe/logger.ts';

export async function readPartitionCounts(triggers: readonly TriggerSpec[], logger: Logger): Promise<Map<string, number>> {
  const [{ ClusterAdmin }, { createKafkaClient }, { resolveTriggerSecurity }, { groupByCluster }] = await Promise.all([
    import('../../kafka/kafkajs/admin.ts'),
    import('../../kafka/kafkajs/client.ts'),
    import('../../kafka/security.ts'),
    import('../../poller/clusters.ts'),
  ]);
  const security = await resolveTriggerSecurity(triggers);
  const counts = new Map<string, number>();
  for (const { brokers, triggers: group } of groupByCluster([...triggers], (t) => t.bootstrapServers ?? [])) {
    const kafka = createKafkaClient({ brokers, logger, retries: 1, connectionTimeoutMs: 2_000, ...security.get(group[0]!) });
    const admin = await ClusterAdmin.connect(kafka, brokers);
    try {
      for (const t of group) {
        const count = await admin.partitionCount(t.topic);
        if (count === undefined) logger.warn(`topic ${t.topic} does not exist on ${brokers.join(',')} yet: scaling.maxTasks is not checked against it`);
        else counts.set(t.topic, count);
      }
    } finally {
      await admin.disconnect();
    }
  }
  return counts;
}
