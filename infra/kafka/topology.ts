/**
 * Who leads what in a cluster, which node coordinates a group, and is every replica in sync:
 * what a fault test asks before it hurts a node. Each call opens a short-lived admin client.
 */
import { Kafka, logLevel, type Admin } from 'kafkajs';
import { OFFSETS_TOPIC, offsetsPartitionFor } from '../../framework/kafka/offsets-partition.ts';
import { privateCluster } from '../../framework/kafka/kafkajs/private-cluster.ts';

async function withAdmin<T>(bootstrap: string[], fn: (admin: Admin, kafka: Kafka) => Promise<T>): Promise<T> {
  const kafka = new Kafka({ clientId: 'sluice-infra-topology', brokers: bootstrap, connectionTimeout: 1_000, requestTimeout: 5_000, retry: { retries: 2 }, logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  try {
    await admin.connect();
    return await fn(admin, kafka);
  } finally {
    await admin.disconnect();
  }
}

export async function leaderOf(bootstrap: string[], topic: string, partition: number): Promise<number> {
  return withAdmin(bootstrap, async (admin) => {
    const { topics } = await admin.fetchTopicMetadata({ topics: [topic] });
    const p = topics[0]?.partitions.find((x) => x.partitionId === partition);
    if (!p || p.leader < 0) throw new Error(`${topic}-${partition} has no leader now`);
    return p.leader;
  });
}

/**
 * The node coordinating `groupId`: the leader of its `__consumer_offsets` partition, checked
 * against what FindCoordinator answers (a mismatch is thrown: the computation or the cluster is wrong).
 */
export async function coordinatorOf(bootstrap: string[], groupId: string): Promise<number> {
  return withAdmin(bootstrap, async (admin, kafka) => {
    await admin.describeGroups([groupId]); // creates __consumer_offsets on first use
    const { topics } = await admin.fetchTopicMetadata({ topics: [OFFSETS_TOPIC] });
    const partitions = topics[0]!.partitions;
    const leader = partitions.find((p) => p.partitionId === offsetsPartitionFor(groupId, partitions.length))!.leader;
    const cluster = privateCluster(kafka);
    if (cluster) {
      await cluster.connect();
      try {
        const found = (await cluster.findGroupCoordinator({ groupId })).nodeId;
        if (found !== leader) throw new Error(`FindCoordinator names node ${found} for ${groupId}, the offsets partition's leader is ${leader}`);
      } finally {
        await cluster.disconnect();
      }
    }
    return leader;
  });
}

export type Health = { ok: true } | { ok: false; reason: string };

/** Three nodes registered; every partition of `topics` and `__consumer_offsets` led, with all its replicas in sync. */
export async function replicationHealth(bootstrap: string[], topics: string[], nodes = bootstrap.length): Promise<Health> {
  try {
    return await withAdmin(bootstrap, async (admin) => {
      const { brokers } = await admin.describeCluster();
      if (brokers.length < nodes) return { ok: false, reason: `${brokers.length} of ${nodes} nodes registered` };
      await admin.describeGroups(['sluice-cluster-probe']); // creates __consumer_offsets on first use
      const meta = await admin.fetchTopicMetadata({ topics: [OFFSETS_TOPIC, ...topics] });
      for (const t of meta.topics) {
        if (t.partitions.length === 0) return { ok: false, reason: `${t.name} has no partitions yet` };
        for (const p of t.partitions) {
          if (p.leader < 0) return { ok: false, reason: `${t.name}-${p.partitionId} has no leader` };
          if (p.isr.length < p.replicas.length) return { ok: false, reason: `${t.name}-${p.partitionId} has ${p.isr.length} of ${p.replicas.length} replicas in sync` };
        }
      }
      return { ok: true };
    });
  } catch (e) {
    return { ok: false, reason: e instanceof Error ? e.message : String(e) };
  }
}
