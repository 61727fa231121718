/**
 * `create-topics`: what `sluice start` does for the local Kafka, for a cluster of the user's own
 * (a dev cluster, MSK): the topics the triggers read and their kafka:// destinations, created where
 * each trigger points, with its credentials; or one --topic. A topic that exists is left as it is.
 */
import type { ServiceSpec, TriggerSpec } from '../config/types.ts';
import { UsageError } from '../errors.ts';
import { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import { createKafkaClient } from '../kafka/kafkajs/client.ts';
import { resolveTriggerSecurity } from '../kafka/security.ts';
import type { Logger } from '../observe/logger.ts';
import { wholeNumber, type ParsedOptions } from './command-spec.ts';

export interface CreateTopicsContext {
  service(): Promise<ServiceSpec>;
  /** The brokers of `trigger` (or of --topic without one): --brokers, its own, KAFKA_BROKERS, the local Kafka. */
  brokers(trigger?: TriggerSpec): Promise<string[]>;
  logger: Logger;
  write(line: string): void;
}

export interface CreatedTopics {
  created: string[];
  existing: string[];
}

const DEFAULT_PARTITIONS = 3;

export async function runCreateTopics(o: ParsedOptions, c: CreateTopicsContext): Promise<CreatedTopics> {
  const partitions = wholeNumber(o, 'partitions', 1) ?? DEFAULT_PARTITIONS;
  const replicationFactor = wholeNumber(o, 'replication-factor', 1);
  const wanted = await topicsWanted(o, c);
  const security = await resolveTriggerSecurity(wanted.flatMap((w) => (w.trigger ? [w.trigger] : [])));
  const out: CreatedTopics = { created: [], existing: [] };
  // One admin client per cluster (and credentials): the first trigger's there.
  const clusters = new Map<string, typeof wanted>();
  for (const w of wanted) clusters.set(w.brokers.join(','), [...(clusters.get(w.brokers.join(',')) ?? []), w]);
  for (const [key, topics] of clusters) {
    const brokers = topics[0]!.brokers;
    const trigger = topics.find((t) => t.trigger)?.trigger;
    const admin = await ClusterAdmin.connect(createKafkaClient({ brokers, logger: c.logger, retries: 2, ...(trigger ? security.get(trigger) : {}) }), brokers);
    try {
      const names = [...new Set(topics.map((t) => t.topic))];
      const created = new Set(await admin.ensureTopics(names.map((topic) => ({ topic, partitions, ...(replicationFactor ? { replicationFactor } : {}) }))));
      for (const topic of names) {
        if (created.has(topic)) {
          out.created.push(topic);
          c.write(`created ${topic} on ${key}: ${partitions} partition${partitions === 1 ? '' : 's'}${replicationFactor ? `, replication factor ${replicationFactor}` : ''}`);
        } else {
          out.existing.push(topic);
          c.write(`${topic} exists on ${key}: left as it is`);
        }
      }
    } finally {
      await admin.disconnect();
    }
  }
  return out;
}

async function topicsWanted(o: ParsedOptions, c: CreateTopicsContext): Promise<Array<{ topic: string; brokers: string[]; trigger?: TriggerSpec }>> {
  if (typeof o.topic === 'string') {
    if (o.topic.trim() === '') throw new UsageError('--topic: give a topic name.');
    return [{ topic: o.topic, brokers: await c.brokers() }];
  }
  const fn = typeof o.function === 'string' ? o.function : undefined;
  const triggers = (await c.service()).triggers.filter((t) => !fn || t.functionName === fn);
  if (triggers.length === 0) throw new UsageError(fn ? `No sluice trigger for function "${fn}".` : 'The service declares no sluice trigger: name a topic (--topic).');
  const out: Array<{ topic: string; brokers: string[]; trigger?: TriggerSpec }> = [];
  for (const t of triggers) {
    const brokers = await c.brokers(t);
    out.push({ topic: t.topic, brokers, trigger: t });
    // A kafka:// destination is written on the trigger's cluster.
    if (t.failure.onFailure?.kind === 'kafka') out.push({ topic: t.failure.onFailure.topic, brokers, trigger: t });
  }
  return out;
}
