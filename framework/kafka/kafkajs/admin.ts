/** Cluster admin the framework needs: reachability, topics, offsets. */
import kafkajs, { type Admin, type Kafka } from 'kafkajs';

// Node's ESM loader cannot see this one among kafkajs's CommonJS named exports.
const { ConfigResourceTypes, AssignerProtocol } = kafkajs;
import { ConfigError, SluiceError, UsageError } from '../../errors.ts';
import { describeCause, isAuthenticationFailure } from './client.ts';
import { OFFSETS_TOPIC, offsetsPartitionFor } from '../offsets-partition.ts';
import { privateCluster } from './private-cluster.ts';
import { waitForLeaders } from './topic-leaders.ts';
import { commandLine } from '../../front-door.ts';
import type { GroupCoordinator, GroupMembers, GroupPartitionOffsets, PartitionOffsets, TopicRequest } from '../admin-port.ts';

export class ClusterAdmin {
  private constructor(private readonly admin: Admin, readonly brokers: string[], private readonly kafka: Kafka) {}

  /** Connects with the client's bounded retries; unreachable brokers become a clear error. */
  static async connect(kafka: Kafka, brokers: string[]): Promise<ClusterAdmin> {
    const admin = kafka.admin();
    try {
      await admin.connect();
      await admin.describeCluster();
    } catch (e) {
      await admin.disconnect().catch(() => undefined);
      throw isAuthenticationFailure(e) ? credentialsRefused(brokers, e) : unreachable(brokers, e);
    }
    return new ClusterAdmin(admin, brokers, kafka);
  }

  /** Creates the topics that do not exist yet; returns the names it created. */
  async ensureTopics(requests: TopicRequest[]): Promise<string[]> {
    const existing = new Set(await this.admin.listTopics());
    const missing = requests.filter((r) => !existing.has(r.topic));
    if (missing.length === 0) return [];
    await this.admin.createTopics({
      waitForLeaders: false, // kafkajs's wait gives up on an answer that only means "not yet" (topic-leaders.ts)
      topics: missing.map((r) => ({
        topic: r.topic, numPartitions: r.partitions ?? 1, replicationFactor: r.replicationFactor ?? -1,
        ...(r.config ? { configEntries: Object.entries(r.config).map(([name, value]) => ({ name, value })) } : {}),
      })),
    }).catch((e: unknown) => {
      throw topicCreationRefused(e, this.brokers);
    });
    await waitForLeaders(this.admin, missing.map((r) => r.topic));
    return missing.map((r) => r.topic);
  }

  /**
   * The session timeouts the brokers accept (group.min/max.session.timeout.ms). Kafka's
   * defaults when the cluster does not let us read its configuration.
   */
  async sessionTimeoutBounds(): Promise<{ min: number; max: number }> {
    const fallback = { min: 6_000, max: 1_800_000 };
    try {
      const { brokers } = await this.admin.describeCluster();
      const names = ['group.min.session.timeout.ms', 'group.max.session.timeout.ms'];
      const { resources } = await this.admin.describeConfigs({
        includeSynonyms: false,
        resources: [{ type: ConfigResourceTypes.BROKER, name: String(brokers[0]!.nodeId), configNames: names }],
      });
      const entries = new Map(resources[0]?.configEntries.map((e) => [e.configName, Number(e.configValue)]) ?? []);
      return { min: entries.get(names[0]!) ?? fallback.min, max: entries.get(names[1]!) ?? fallback.max };
    } catch {
      return fallback;
    }
  }

  /**
   * The longest offset-commit metadata every broker accepts (offset.metadata.max.bytes: the group's
   * coordinator can be any of them), or undefined when the cluster does not let us read its
   * configuration (DescribeConfigs refused, as an MSK IAM policy may).
   */
  async offsetMetadataMaxBytes(): Promise<number | undefined> {
    const name = 'offset.metadata.max.bytes';
    try {
      const { brokers } = await this.admin.describeCluster();
      const { resources } = await this.admin.describeConfigs({
        includeSynonyms: false,
        resources: brokers.map((b) => ({ type: ConfigResourceTypes.BROKER, name: String(b.nodeId), configNames: [name] })),
      });
      const values = resources.map((r) => Number(r.configEntries.find((e) => e.configName === name)?.configValue));
      return values.length > 0 && values.every((v) => Number.isInteger(v) && v >= 0) ? Math.min(...values) : undefined;
    } catch {
      return undefined;
    }
  }

  /** The largest record batch the brokers accept on `topic`: its max.message.bytes (the broker's message.max.bytes unless the topic overrides it). */
  async maxMessageBytes(topic: string): Promise<number> {
    const { resources } = await this.admin.describeConfigs({
      includeSynonyms: false,
      resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configNames: ['max.message.bytes'] }],
    });
    const value = Number(resources[0]?.configEntries.find((e) => e.configName === 'max.message.bytes')?.configValue);
    if (!Number.isInteger(value) || value <= 0) throw new Error(`topic "${topic}" reported no max.message.bytes`);
    return value;
  }

  /** Sets one topic configuration value (kafka-configs --alter). */
  async setTopicConfig(topic: string, name: string, value: string): Promise<void> {
    await this.admin.alterConfigs({ validateOnly: false, resources: [{ type: ConfigResourceTypes.TOPIC, name: topic, configEntries: [{ name, value }] }] });
  }

  async missingTopics(topics: string[]): Promise<string[]> {
    const existing = new Set(await this.admin.listTopics());
    return topics.filter((t) => !existing.has(t));
  }

  /** The topic's partition count; undefined when it does not exist. */
  async partitionCount(topic: string): Promise<number | undefined> {
    if ((await this.missingTopics([topic])).length > 0) return undefined;
    const { topics } = await this.admin.fetchTopicMetadata({ topics: [topic] });
    return topics[0]?.partitions.length;
  }

  /**
   * Raises a topic's partition count to `count` (Kafka never lowers it). Done when the topic has
   * that many already: kafkajs asks again after a retriable answer (a controller moving) to a
   * request the controller had carried out, and the broker refuses a count that is not higher.
   */
  async createPartitions(topic: string, count: number): Promise<void> {
    try {
      await this.admin.createPartitions({ topicPartitions: [{ topic, count }] });
    } catch (e) {
      if ((e as { type?: string }).type !== 'INVALID_PARTITIONS' || ((await this.partitionCount(topic)) ?? 0) < count) throw e;
    }
  }

  async deleteTopics(topics: string[]): Promise<void> {
    await this.admin.deleteTopics({ topics });
  }

  /** Each partition's first and next offset. */
  async topicOffsets(topic: string): Promise<Array<{ partition: number; logStart: number; logEnd: number }>> {
    return (await this.admin.fetchTopicOffsets(topic)).map((e) => ({ partition: e.partition, logStart: Number(e.low), logEnd: Number(e.high) }));
  }

  async deleteGroup(groupId: string): Promise<void> {
    await this.admin.deleteGroups([groupId]);
  }

  async offsets(groupId: string, topic: string): Promise<PartitionOffsets[]> {
    return (await this.groupOffsets(groupId, topic)).map(({ partition, committed, logEnd }) => ({ partition, committed, logEnd }));
  }

  /** `offsets` plus each partition's log-start offset, for lag. */
  async groupOffsets(groupId: string, topic: string): Promise<GroupPartitionOffsets[]> {
    const [ends, [committed]] = await Promise.all([
      this.admin.fetchTopicOffsets(topic),
      retryCoordinator(() => this.admin.fetchOffsets({ groupId, topics: [topic] })),
    ]);
    const byPartition = new Map(committed?.partitions.map((p) => [p.partition, p]) ?? []);
    return ends
      .map((e) => {
        const c = byPartition.get(e.partition);
        const offset = c ? Number(c.offset) : -1;
        return { partition: e.partition, committed: offset, logStart: Number(e.low), logEnd: Number(e.high), ...(c?.metadata ? { metadata: c.metadata } : {}) };
      })
      .sort((a, b) => a.partition - b.partition);
  }

  /**
   * The group's commit of each partition of `topic` with the metadata it carries
   * (parallelizationFactor's done ranges, framework/parallel/commit-metadata.ts); kafkajs's own
   * offset resolution drops the metadata. A partition never committed is left out.
   */
  async committedWithMetadata(groupId: string, topic: string): Promise<Map<number, { offset: number; metadata: string | null }>> {
    const [committed] = await retryCoordinator(() => this.admin.fetchOffsets({ groupId, topics: [topic] }));
    const out = new Map<number, { offset: number; metadata: string | null }>();
    for (const p of committed?.partitions ?? []) if (Number(p.offset) >= 0) out.set(p.partition, { offset: Number(p.offset), metadata: p.metadata ?? null });
    return out;
  }

  /** The group's state and members, each with the partitions assigned to it (topic -> partitions). */
  async describeGroup(groupId: string): Promise<GroupMembers> {
    const { groups } = await retryCoordinator(() => this.admin.describeGroups([groupId]));
    const group = groups[0];
    if (!group) return { state: 'Unknown', protocolType: '', protocol: '', members: [] };
    return {
      state: group.state,
      protocolType: group.protocolType,
      protocol: group.protocol,
      members: group.members.map((m) => ({ memberId: m.memberId, clientId: m.clientId, clientHost: m.clientHost, assignment: decodeAssignment(m.memberAssignment) })),
    };
  }

  /**
   * Who coordinates `groupId`: FindCoordinator's answer, and the `__consumer_offsets` partition
   * that holds the group with its leader from the metadata. When kafkajs no longer exposes its
   * cluster (private-cluster.ts), the partition's leader is named instead.
   */
  async coordinator(groupId: string): Promise<GroupCoordinator> {
    // FindCoordinator first: on a fresh cluster it is what creates __consumer_offsets.
    const found = await findCoordinator(this.kafka, groupId);
    const [{ topics }, { brokers }] = await Promise.all([
      retryCoordinator(() => this.admin.fetchTopicMetadata({ topics: [OFFSETS_TOPIC] })),
      this.admin.describeCluster(),
    ]);
    const partitions = topics[0]?.partitions ?? [];
    if (partitions.length === 0) {
      throw new SluiceError('BROKER_UNREACHABLE', `Kafka at ${this.brokers.join(',')} reports no ${OFFSETS_TOPIC} partitions yet (a new cluster creates the topic on first use); run the command again in a few seconds.`, { retriable: true });
    }
    const offsetsPartition = offsetsPartitionFor(groupId, partitions.length);
    const leader = partitions.find((p) => p.partitionId === offsetsPartition)?.leader ?? -1;
    const nodeId = found?.nodeId ?? leader;
    const broker = brokers.find((b) => b.nodeId === nodeId);
    const address = found ? `${found.host}:${found.port}` : broker ? `${broker.host}:${broker.port}` : '?';
    return { nodeId, address, offsetsPartition, offsetsPartitions: partitions.length, offsetsPartitionLeader: leader };
  }

  /** For each partition, the first offset at or after `timestampMs` (log end when none). */
  async offsetsForTimestamp(topic: string, timestampMs: number): Promise<Array<{ partition: number; offset: number }>> {
    const found = await this.admin.fetchTopicOffsetsByTimestamp(topic, timestampMs);
    return found.map((p) => ({ partition: p.partition, offset: Number(p.offset) }));
  }

  /** Sets a group's committed offsets; only allowed while the group has no active member. */
  /** Commits offsets for a group without members; false (nothing written) when the group has running members. */
  async setGroupOffsets(groupId: string, topic: string, partitions: Array<{ partition: number; offset: number }>): Promise<boolean> {
    try {
      await retryCoordinator(() => this.admin.setOffsets({ groupId, topic, partitions: partitions.map((p) => ({ partition: p.partition, offset: String(p.offset) })) }));
      return true;
    } catch (e) {
      // kafkajs checks the group's state first and refuses with this (its only such message).
      if (/must have no running instances/.test((e as Error).message)) return false;
      throw e;
    }
  }

  async disconnect(): Promise<void> {
    await this.admin.disconnect();
  }
}

/**
 * kafkajs's admin does not retry group requests when the coordinator is still loading or moved
 * (a fresh cluster answers NOT_COORDINATOR while it creates __consumer_offsets): a few bounded
 * retries on what Kafka marks retriable.
 */
async function retryCoordinator<T>(request: () => Promise<T>, attempts = 6): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await request();
    } catch (e) {
      if (attempt >= attempts || (e as { retriable?: unknown }).retriable !== true) throw e;
      await new Promise((r) => setTimeout(r, 100 * 2 ** attempt));
    }
  }
}

/** FindCoordinator through kafkajs's cluster; undefined when kafkajs no longer exposes it. */
async function findCoordinator(kafka: Kafka, groupId: string): Promise<{ nodeId: number; host: string; port: number } | undefined> {
  const cluster = privateCluster(kafka);
  if (!cluster) return undefined;
  await cluster.connect();
  try {
    await cluster.refreshMetadata();
    return (await cluster.findGroupCoordinatorMetadata({ groupId, coordinatorType: 0 })).coordinator;
  } finally {
    await cluster.disconnect();
  }
}

/** A member's assignment as the consumer protocol encodes it; empty while a rebalance has none. */
function decodeAssignment(bytes: Buffer): Record<string, number[]> {
  if (bytes.length === 0) return {};
  try {
    return AssignerProtocol.MemberAssignment.decode(bytes)?.assignment ?? {};
  } catch {
    return {}; // not the standard consumer protocol: members are still listed, without partitions
  }
}

/** The brokers answered, and refused the SASL credentials: retrying cannot help. */
export function credentialsRefused(brokers: string[], cause: unknown): ConfigError {
  return new ConfigError(
    `Kafka at ${brokers.join(',')} refused the credentials (${describeCause(cause)}). ` +
      'Check the username and password in the secret that accessConfigurations names (locally: its SLUICE_SECRET_<NAME> variable), ' +
      'and that the user exists on the cluster for that SASL mechanism.',
    { cause },
  );
}

export function unreachable(brokers: string[], cause: unknown): SluiceError {
  return new SluiceError(
    'BROKER_UNREACHABLE',
    `Cannot reach Kafka at ${brokers.join(',')} (${describeCause(cause)}). ` +
      'Check that the brokers are up and that bootstrapServers / custom.sluice.bootstrapServers / KAFKA_BROKERS name them; ' +
      `leave all three unset to let \`${commandLine('start')}\` run a local broker.`,
    { retriable: true, cause },
  );
}

/** kafkajs's "Topic creation errors" (an aggregate) as what each topic was refused for and what to change. */
function topicCreationRefused(e: unknown, brokers: string[]): unknown {
  const errors = (e as { errors?: unknown }).errors;
  if (!Array.isArray(errors) || errors.length === 0) return e;
  const hint: Record<string, string> = {
    INVALID_REPLICATION_FACTOR: 'give a replication factor at most the number of brokers',
    INVALID_TOPIC_EXCEPTION: 'a topic name is 1–249 of a-z A-Z 0-9 . _ -, and not . or ..',
    INVALID_PARTITIONS: 'give at least 1 partition',
    TOPIC_AUTHORIZATION_FAILED: "the brokers' ACLs must allow CREATE on the topic (or the cluster)",
    CLUSTER_AUTHORIZATION_FAILED: "the brokers' ACLs must allow CREATE on the cluster",
    POLICY_VIOLATION: "the brokers' create.topic.policy refused it",
  };
  const lines = errors.map((x: { topic?: string; type?: string; message?: string }) => `topic "${x.topic ?? '?'}": ${x.type ?? 'refused'} (${x.message ?? ''})${x.type && hint[x.type] ? `: ${hint[x.type]}` : ''}`);
  return new UsageError(`The brokers at ${brokers.join(',')} refused to create ${lines.length === 1 ? 'a topic' : `${lines.length} topics`}:\n${lines.join('\n')}`);
}

