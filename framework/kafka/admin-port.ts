/**
 * The admin port's models: what the framework asks of a cluster about topics, offsets and groups,
 * whichever client answers (kafkajs's admin.ts; librdkafka's rdkafka/describe-group.ts describes a
 * group on the consumer protocol).
 */
export interface TopicRequest {
  topic: string;
  partitions?: number;
  /** Replicas of each partition; default: the brokers' default.replication.factor. */
  replicationFactor?: number;
  /** Topic configuration, e.g. { 'max.message.bytes': '3145728' }. */
  config?: Record<string, string>;
}

export interface PartitionOffsets {
  partition: number;
  /** Committed offset of the group (next record to read), or -1 when none is committed. */
  committed: number;
  /** Log-end offset (high watermark). */
  logEnd: number;
}

/** A partition's offsets as `lag` reports them. */
export interface GroupPartitionOffsets extends PartitionOffsets {
  /** Log-start offset (low watermark): the first record still in the log. */
  logStart: number;
  /** The metadata the group's commit carries, when it carries any (parallelizationFactor's done ranges: framework/parallel/commit-metadata.ts). */
  metadata?: string;
}

/** A consumer group as the coordinator describes it. */
export interface GroupMembers {
  /** `Stable`, `PreparingRebalance`, `CompletingRebalance`, `Empty`, `Dead` or `Unknown`. */
  state: string;
  /** `consumer` for Kafka consumers (empty while the group has no member). */
  protocolType: string;
  /** The group's type as Kafka names it (`kafka-groups.sh`): `consumer` for KIP-848's protocol, `share` for a share group (queue mode); `classic` otherwise. */
  type?: 'classic' | 'consumer' | 'share';
  /** The partition assignor the members agreed on, e.g. `RoundRobinAssigner` (empty while none). */
  protocol: string;
  /** `groupInstanceId`: a static member's (KIP-345), for groups on the consumer protocol. */
  members: Array<{ memberId: string; clientId: string; clientHost: string; assignment: Record<string, number[]>; groupInstanceId?: string }>;
}

/** The broker coordinating a group, and the `__consumer_offsets` partition it does so as leader of. */
export interface GroupCoordinator {
  nodeId: number;
  /** `host:port` as the broker advertises it. */
  address: string;
  /** `Utils.abs(groupId.hashCode()) % partitions`, with the partition count read from the broker. */
  offsetsPartition: number;
  offsetsPartitions: number;
  /** The leader of that partition in the metadata: the coordinator, unless leadership is moving. */
  offsetsPartitionLeader: number;
}
