/**
 * The requests a share consumer sends (KIP-932), as kafkajs's connection sends them: Metadata v12
 * (share RPCs name topics by id), FindCoordinator v6 (who keeps a share partition's state),
 * DescribeShareGroupOffsets v1 (where a share group stands, its lag), IncrementalAlterConfigs v1 (a share group's settings), ShareGroupHeartbeat v1, ShareFetch v1–2 and ShareAcknowledge
 * v1–2 (v2 adds KIP-1222's renewal of acquisition locks). Field for field as Kafka 4.4's message
 * definitions give them (`org.apache.kafka.common.message.*Data.SCHEMAS`).
 */
import { Reader, Writer } from './wire.ts';

export const API = { Metadata: 3, FindCoordinator: 10, IncrementalAlterConfigs: 44, ShareGroupHeartbeat: 76, ShareFetch: 78, ShareAcknowledge: 79, DescribeShareGroupOffsets: 90 } as const;

/** What kafkajs's Connection.send() takes. */
export interface WireRequest<T> {
  request: { apiKey: number; apiVersion: number; apiName: string; encode(): Promise<{ buf: Buffer; buffer: Buffer }> };
  response: { decode(payload: Buffer): Promise<T>; parse(data: T): Promise<T> };
}

function wire<T>(apiName: keyof typeof API, apiVersion: number, body: Writer, read: (r: Reader) => T): WireRequest<T> {
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

// --- FindCoordinator v6: a group's coordinator (key type 0) or a share partition's state (2) -----

export const COORDINATOR = { GROUP: 0, SHARE: 2 } as const;

/**
 * The share coordinator's key for one partition's state in a share group (KIP-932):
 * `<group>:<topic id as Kafka prints a Uuid (base64url)>:<partition>`.
 */
export const shareStateKey = (groupId: string, topicId: string, partition: number): string =>
  `${groupId}:${Buffer.from(topicId, 'hex').toString('base64url')}:${partition}`;

export function findCoordinators(keyType: (typeof COORDINATOR)[keyof typeof COORDINATOR], keys: string[]): WireRequest<Array<{ key: string; nodeId: number; errorCode: number; errorMessage: string | null }>> {
  const w = Writer.request().i8(keyType).array(keys, (w, k) => w.string(k)).tags();
  return wire('FindCoordinator', 6, w, (r) => {
    r.i32(); // throttle
    const coordinators = r.array((r) => {
      const key = r.string() ?? '';
      const nodeId = r.i32();
      r.string(); // host
      r.i32(); // port
      const c = { key, nodeId, errorCode: r.i16(), errorMessage: r.string() };
      r.tags();
      return c;
    });
    r.tags();
    return coordinators;
  });
}

// --- DescribeShareGroupOffsets v1: each partition's start offset and lag, from the group's coordinator --

export interface ShareGroupOffsets {
  errorCode: number;
  errorMessage: string | null;
  /**
   * Per partition: `startOffset`, the first offset not yet acknowledged for good (-1 with no state
   * yet), and `lag`, the records from there to the log end not acknowledged yet (-1 when unknown).
   */
  partitions: Array<{ partition: number; startOffset: number; lag: number; errorCode: number; errorMessage: string | null }>;
}

export function describeShareGroupOffsets(groupId: string, topic: string): WireRequest<ShareGroupOffsets> {
  const w = Writer.request()
    .array([groupId], (w, g) => w.string(g).array(null, () => undefined).tags()) // null: every topic of the group
    .tags();
  return wire('DescribeShareGroupOffsets', 1, w, (r) => {
    r.i32(); // throttle
    const [group] = r.array((r) => {
      r.string(); // group id
      const topics = r.array((r) => {
        const name = r.string();
        r.uuid();
        const partitions = r.array((r) => {
          const partition = r.i32();
          const startOffset = Number(r.i64());
          r.i32(); // leader epoch
          const p = { partition, startOffset, lag: Number(r.i64()), errorCode: r.i16(), errorMessage: r.string() };
          r.tags();
          return p;
        });
        r.tags();
        return { name, partitions };
      });
      const g = { errorCode: r.i16(), errorMessage: r.string(), partitions: topics.filter((t) => t.name === topic).flatMap((t) => t.partitions) };
      r.tags();
      return g;
    });
    r.tags();
    return group ?? { errorCode: -1, errorMessage: 'no answer for the group', partitions: [] };
  });
}

// --- IncrementalAlterConfigs v1, on a GROUP resource ----------------------------------------------

const GROUP_RESOURCE = 32;
const SET = 0;

/** Sets a share group's settings (share.auto.offset.reset, share.record.lock.duration.ms…); the answer's error, 0 for none. */
export function alterGroupConfig(groupId: string, settings: Record<string, string>): WireRequest<{ errorCode: number; errorMessage: string | null }> {
  const w = Writer.request()
    .array([groupId], (w, g) => w.i8(GROUP_RESOURCE).string(g).array(Object.entries(settings), (w, [name, value]) => w.string(name).i8(SET).string(value).tags()).tags())
    .bool(false)
    .tags();
  return wire('IncrementalAlterConfigs', 1, w, (r) => {
    r.i32(); // throttle
    const [answer] = r.array((r) => {
      const a = { errorCode: r.i16(), errorMessage: r.string() };
      r.i8();
      r.string();
      r.tags();
      return a;
    });
    r.tags();
    return answer ?? { errorCode: -1, errorMessage: 'no answer for the group' };
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
