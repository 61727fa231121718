/**
 * What Sluice asks about a share group, beside consuming (messages.ts): FindCoordinator v6 (who
 * keeps a share partition's state), DescribeShareGroupOffsets v1 (each partition's start offset and
 * lag), ShareGroupDescribe v1 (its state and members) and IncrementalAlterConfigs v1 (its
 * settings). Field for field as Kafka 4.4's message definitions give them.
 */
import { wire, type WireRequest } from './messages.ts';
import { Writer } from './wire.ts';

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

/**
 * A group's settings as the cluster has them (DescribeConfigs v4, resource type GROUP): each of
 * `names` with its value (the cluster's default when the group sets none). Readable with
 * DescribeConfigs on the group, where AlterConfigs may be refused.
 */
export function describeGroupConfig(groupId: string, names: readonly string[]): WireRequest<{ errorCode: number; errorMessage: string | null; values: Record<string, string | null> }> {
  const w = Writer.request()
    .array([groupId], (w, g) => w.i8(GROUP_RESOURCE).string(g).array(names, (w, n) => w.string(n)).tags())
    .bool(false) // synonyms
    .bool(false) // documentation
    .tags();
  return wire('DescribeConfigs', 4, w, (r) => {
    r.i32(); // throttle
    const [result] = r.array((r) => {
      const errorCode = r.i16();
      const errorMessage = r.string();
      r.i8();
      r.string();
      const values: Record<string, string | null> = {};
      r.array((r) => {
        const name = r.string() ?? '';
        values[name] = r.string();
        r.bool(); // read-only
        r.i8(); // source
        r.bool(); // sensitive
        r.array((r) => {
          r.string();
          r.string();
          r.i8();
          r.tags();
        });
        r.i8(); // type
        r.string(); // documentation
        r.tags();
      });
      r.tags();
      return { errorCode, errorMessage, values };
    });
    r.tags();
    return result ?? { errorCode: -1, errorMessage: 'no answer for the group', values: {} };
  });
}

// --- ShareGroupDescribe v1: the group's state, assignor and members with their partitions ---------

export interface ShareGroupDescription {
  errorCode: number;
  errorMessage: string | null;
  /** `Empty`, `Stable`, `Dead`… (`Dead`: no such group). */
  state: string;
  assignor: string;
  members: Array<{ memberId: string; clientId: string; clientHost: string; assignment: Record<string, number[]> }>;
}

export function shareGroupDescribe(groupId: string): WireRequest<ShareGroupDescription> {
  const w = Writer.request().array([groupId], (w, g) => w.string(g)).bool(false).tags();
  return wire('ShareGroupDescribe', 1, w, (r) => {
    r.i32(); // throttle
    const [group] = r.array((r) => {
      const errorCode = r.i16();
      const errorMessage = r.string();
      r.string(); // group id
      const state = r.string() ?? '';
      r.i32(); // group epoch
      r.i32(); // assignment epoch
      const assignor = r.string() ?? '';
      const members = r.array((r) => {
        const memberId = r.string() ?? '';
        r.string(); // rack
        r.i32(); // member epoch
        const clientId = r.string() ?? '';
        const clientHost = r.string() ?? '';
        r.array((r) => r.string()); // subscribed topics
        const assignment: Record<string, number[]> = {};
        r.array((r) => {
          r.uuid();
          const name = r.string() ?? '';
          assignment[name] = r.array((r) => r.i32());
          r.tags();
        });
        r.tags(); // the assignment's
        r.tags();
        return { memberId, clientId, clientHost, assignment };
      });
      r.i32(); // authorized operations
      r.tags();
      return { errorCode, errorMessage, state, assignor, members };
    });
    r.tags();
    return group ?? { errorCode: -1, errorMessage: 'no answer for the group', state: 'Unknown', assignor: '', members: [] };
  });
}
