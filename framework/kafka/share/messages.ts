/**
 * The requests a share consumer sends (KIP-932), as kafkajs's connection sends them: Metadata v12
 * (share RPCs name topics by id), ShareGroupHeartbeat v1, ShareFetch v1–2 and ShareAcknowledge
 * v1–2 (v2 adds KIP-1222's renewal of acquisition locks). Field for field as Kafka 4.4's message
 * definitions give them (`org.apache.kafka.common.message.*Data.SCHEMAS`).
 */
import { Reader, Writer } from './wire.ts';

export const API = { Metadata: 3, FindCoordinator: 10, DescribeConfigs: 32, IncrementalAlterConfigs: 44, ShareGroupHeartbeat: 76, ShareGroupDescribe: 77, ShareFetch: 78, ShareAcknowledge: 79, DescribeShareGroupOffsets: 90 } as const;

/** What kafkajs's Connection.send() takes. */
export interface WireRequest<T> {
  request: { apiKey: number; apiVersion: number; apiName: string; encode(): Promise<{ buf: Buffer; buffer: Buffer }> };
  response: { decode(payload: Buffer): Promise<T>; parse(data: T): Promise<T> };
}

export function wire<T>(apiName: keyof typeof API, apiVersion: number, body: Writer, read: (r: Reader) => T): WireRequest<T> {
  return {
    request: { apiKey: API[apiName], apiVersion, apiName, encode: async () => body.encoded() },
    response: { decode: async (payload) => read(Reader.response(payload)), parse: async (data) => data },
  };
}

/** Acknowledge types (KIP-932, KIP-1222). GAP: an acquired offset with no record (a control record, a compacted one). */
export const ACK = { GAP: 0, ACCEPT: 1, RELEASE: 2, REJECT: 3, RENEW: 4 } as const;
export type AckType = (typeof ACK)[keyof typeof ACK];

export interface AckBatch {
  firstOffset: bigint;
  lastOffset: bigint;
  /** One type for the whole range, or one per offset. */
  types: AckType[];
}

export interface TopicAcks {
  topicId: string;
  partitions: Array<{ partition: number; batches: AckBatch[] }>;
}

// --- Metadata v12: topic ids and leaders ---------------------------------------------------------

export interface TopicMetadata {
  name: string;
  topicId: string;
  errorCode: number;
  partitions: Array<{ partition: number; leader: number; leaderEpoch: number; errorCode: number }>;
}

export interface MetadataAnswer {
  brokers: Array<{ nodeId: number; host: string; port: number }>;
  topics: TopicMetadata[];
}

export function metadata(topics: string[]): WireRequest<MetadataAnswer> {
  const w = Writer.request()
    .array(topics, (w, name) => w.uuid('0'.repeat(32)).string(name).tags())
    .bool(false)
    .bool(false)
    .tags();
  return wire('Metadata', 12, w, (r) => {
    r.i32(); // throttle
    const brokers = r.array((r) => {
      const b = { nodeId: r.i32(), host: r.string() ?? '', port: r.i32() };
      r.string(); // rack
      r.tags();
      return b;
    });
    r.string(); // cluster id
    r.i32(); // controller
    const topics = r.array((r) => {
      const errorCode = r.i16();
      const name = r.string() ?? '';
      const topicId = r.uuid();
      r.bool(); // internal
      const partitions = r.array((r) => {
        const p = { errorCode: r.i16(), partition: r.i32(), leader: r.i32(), leaderEpoch: r.i32() };
        r.array((r) => r.i32());
        r.array((r) => r.i32());
        r.array((r) => r.i32());
        r.tags();
        return p;
      });
      r.i32(); // authorized operations
      r.tags();
      return { name, topicId, errorCode, partitions };
    });
    r.tags();
    return { brokers, topics };
  });
}

// --- ShareGroupHeartbeat v1 ----------------------------------------------------------------------

export interface HeartbeatAnswer {
  errorCode: number;
  errorMessage: string | null;
  memberId: string | null;
  memberEpoch: number;
  heartbeatIntervalMs: number;
  /** The whole assignment when it changed; null when unchanged. */
  assignment: Array<{ topicId: string; partitions: number[] }> | null;
}

/** memberEpoch 0 joins (memberId chosen by the client, a UUID), -1 leaves; `topics` null when unchanged since the last heartbeat. */
export function shareGroupHeartbeat(h: { groupId: string; memberId: string; memberEpoch: number; rackId?: string; topics: string[] | null }): WireRequest<HeartbeatAnswer> {
  const w = Writer.request()
    .string(h.groupId)
    .string(h.memberId)
    .i32(h.memberEpoch)
    .string(h.rackId ?? null)
    .array(h.topics, (w, t) => w.string(t))
    .tags();
  return wire('ShareGroupHeartbeat', 1, w, (r) => {
    r.i32(); // throttle
    const errorCode = r.i16();
    const errorMessage = r.string();
    const memberId = r.string();
    const memberEpoch = r.i32();
    const heartbeatIntervalMs = r.i32();
    // Assignment is a nullable struct: -1 (0xff) for null, else 1 then its fields.
    const present = r.u8();
    let assignment: HeartbeatAnswer['assignment'] = null;
    if (present === 1) {
      assignment = r.array((r) => {
        const a = { topicId: r.uuid(), partitions: r.array((r) => r.i32()) };
        r.tags();
        return a;
      });
      r.tags();
    }
    r.tags();
    return { errorCode, errorMessage, memberId, memberEpoch, heartbeatIntervalMs, assignment };
  });
}

// --- ShareFetch v1–2 and ShareAcknowledge v1–2 ----------------------------------------------------

export interface PartitionFetched {
  partition: number;
  errorCode: number;
  errorMessage: string | null;
  ackErrorCode: number;
  ackErrorMessage: string | null;
  leader: { id: number; epoch: number };
  /** The record batches, a view into the response. */
  records: Buffer | null;
  acquired: Array<{ firstOffset: bigint; lastOffset: bigint; deliveryCount: number }>;
}

export interface ShareFetchAnswer {
  errorCode: number;
  errorMessage: string | null;
  acquisitionLockTimeoutMs: number;
  topics: Array<{ topicId: string; partitions: PartitionFetched[] }>;
  nodeEndpoints: Array<{ nodeId: number; host: string; port: number }>;
}

export interface ShareFetchRequest {
  groupId: string;
  memberId: string;
  /** 0 opens a share session on this broker, then 1, 2…; -1 closes it (with only acknowledgements). */
  sessionEpoch: number;
  maxWaitMs: number;
  minBytes: number;
  maxBytes: number;
  maxRecords: number;
  batchSize: number;
  /**
   * v2: acquire at most maxRecords (RECORD_LIMIT) rather than whole record batches (BATCH_OPTIMIZED,
   * the default): a member with slow invocations should not lock records it cannot start soon.
   */
  recordLimit?: boolean;
  /** Partitions to fetch from (added to the session), each with the acknowledgements it carries. */
  topics: TopicAcks[];
  /** Partitions to drop from the session. */
  forgotten: Array<{ topicId: string; partitions: number[] }>;
}

const ackBatches = (w: Writer, batches: AckBatch[]) =>
  w.array(batches, (w, b) => w.i64(b.firstOffset).i64(b.lastOffset).array(b.types, (w, t) => w.i8(t)).tags());

const topicAcks = (w: Writer, topics: TopicAcks[]) =>
  w.array(topics, (w, t) => w.uuid(t.topicId).array(t.partitions, (w, p) => ackBatches(w.i32(p.partition), p.batches).tags()).tags());

const endpoints = (r: Reader) =>
  r.array((r) => {
    const e = { nodeId: r.i32(), host: r.string() ?? '', port: r.i32() };
    r.string(); // rack
    r.tags();
    return e;
  });

const leader = (r: Reader) => {
  const l = { id: r.i32(), epoch: r.i32() };
  r.tags();
  return l;
};

export function shareFetch(f: ShareFetchRequest, version: 1 | 2): WireRequest<ShareFetchAnswer> {
  const w = Writer.request().string(f.groupId).string(f.memberId).i32(f.sessionEpoch).i32(f.maxWaitMs).i32(f.minBytes).i32(f.maxBytes).i32(f.maxRecords).i32(f.batchSize);
  if (version >= 2) w.i8(f.recordLimit ? 1 : 0).bool(false); // acquire mode; not a renewal-only request
  topicAcks(w, f.topics);
  w.array(f.forgotten, (w, t) => w.uuid(t.topicId).array(t.partitions, (w, p) => w.i32(p)).tags()).tags();
  return wire('ShareFetch', version, w, (r) => {
    r.i32(); // throttle
    const errorCode = r.i16();
    const errorMessage = r.string();
    const acquisitionLockTimeoutMs = r.i32();
    const topics = r.array((r) => {
      const topicId = r.uuid();
      const partitions = r.array((r): PartitionFetched => {
        const p = { partition: r.i32(), errorCode: r.i16(), errorMessage: r.string(), ackErrorCode: r.i16(), ackErrorMessage: r.string(), leader: leader(r), records: r.bytes() };
        const acquired = r.array((r) => {
          const a = { firstOffset: r.i64(), lastOffset: r.i64(), deliveryCount: r.i16() };
          r.tags();
          return a;
        });
        r.tags();
        return { ...p, acquired };
      });
      r.tags();
      return { topicId, partitions };
    });
    const nodeEndpoints = endpoints(r);
    r.tags();
    return { errorCode, errorMessage, acquisitionLockTimeoutMs, topics, nodeEndpoints };
  });
}

export interface ShareAcknowledgeAnswer {
  errorCode: number;
  errorMessage: string | null;
  /** v2 only (-1 in v1). */
  acquisitionLockTimeoutMs: number;
  topics: Array<{ topicId: string; partitions: Array<{ partition: number; errorCode: number; errorMessage: string | null; leader: { id: number; epoch: number } }> }>;
  nodeEndpoints: Array<{ nodeId: number; host: string; port: number }>;
}

/** `renew`: every type is RENEW (KIP-1222, v2): the locks of records still in hand are extended, nothing else. */
export function shareAcknowledge(a: { groupId: string; memberId: string; sessionEpoch: number; topics: TopicAcks[]; renew?: boolean }, version: 1 | 2): WireRequest<ShareAcknowledgeAnswer> {
  if (a.renew && version < 2) throw new Error('renewing acquisition locks needs ShareAcknowledge v2 (Kafka 4.2 or later)');
  const w = Writer.request().string(a.groupId).string(a.memberId).i32(a.sessionEpoch);
  if (version >= 2) w.bool(a.renew ?? false);
  topicAcks(w, a.topics).tags();
  return wire('ShareAcknowledge', version, w, (r) => {
    r.i32(); // throttle
    const errorCode = r.i16();
    const errorMessage = r.string();
    const acquisitionLockTimeoutMs = version >= 2 ? r.i32() : -1;
    const topics = r.array((r) => {
      const topicId = r.uuid();
      const partitions = r.array((r) => {
        const p = { partition: r.i32(), errorCode: r.i16(), errorMessage: r.string(), leader: leader(r) };
        r.tags();
        return p;
      });
      r.tags();
      return { topicId, partitions };
    });
    const nodeEndpoints = endpoints(r);
    r.tags();
    return { errorCode, errorMessage, acquisitionLockTimeoutMs, topics, nodeEndpoints };
  });
}
