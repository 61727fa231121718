/**
 * A scripted broker for the share client's unit tests (framework/kafka/share/*-script and review
 * tests): each request answered by a script, the answers' building blocks, a session host, and a
 * recorder of acknowledgement outcomes. A test file that uses it mocks './messages.ts' so each
 * request carries its kind and input (vi.mock is hoisted per file, so it stays there).
 */
import type { KafkaRecord } from '../../framework/event/record.ts';
import type { AcquiredBatch, SessionHost } from '../../framework/kafka/share/leader-session.ts';
import type { Destination, ShareTransport } from '../../framework/kafka/share/transport.ts';
import { createLogger } from '../../framework/observe/logger.ts';

export const TOPIC_ID = '0123456789abcdef0fedcba987654321';
export const logger = createLogger('t', { level: 'error' });
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Sent = { kind: string; input: any; to: Destination };

export const part = (partition: number, o: Partial<{ errorCode: number; ackErrorCode: number; acquired: Array<[number, number, number]> }> = {}) => ({
  partition, errorCode: o.errorCode ?? 0, errorMessage: null, ackErrorCode: o.ackErrorCode ?? 0, ackErrorMessage: null, leader: { id: 1, epoch: 0 },
  records: o.acquired ? Buffer.from([1]) : null, acquired: (o.acquired ?? []).map(([f, l, d]) => ({ firstOffset: BigInt(f), lastOffset: BigInt(l), deliveryCount: d })),
});
export const fetched = (partitions: ReturnType<typeof part>[]) => ({ errorCode: 0, errorMessage: null, acquisitionLockTimeoutMs: 30_000, topics: partitions.length ? [{ topicId: TOPIC_ID, partitions }] : [], nodeEndpoints: [] });
export const acked = { errorCode: 0, errorMessage: null, acquisitionLockTimeoutMs: 30_000, topics: [], nodeEndpoints: [] };
export const rec = (partition: number, offset: number): KafkaRecord => ({ topic: 't', partition, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] });
export const tick = (ms = 50) => new Promise((r) => setTimeout(r, ms));

const offsetsOf = (batches: ReadonlyArray<{ firstOffset: bigint; lastOffset: bigint }>): number[] =>
  batches.flatMap((b) => Array.from({ length: Number(b.lastOffset - b.firstOffset) + 1 }, (_, i) => Number(b.firstOffset) + i));

/** Answers by `answer`; decode gives a record for every acquired offset of the last fetch unless `decode` says otherwise. */
export function scripted(answer: (req: Sent, to: Destination) => unknown, o: { decode?: (partition: number) => KafkaRecord[]; refresh?: () => Promise<void> } = {}): ShareTransport & { sent: Sent[] } {
  const sent: Sent[] = [];
  let lastAcquired = new Map<number, number[]>();
  return {
    sent,
    async send(to, request) {
      const r = Object.assign(request as unknown as Sent, { to });
      sent.push(r);
      await tick(2); // a round trip
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const a = (await answer(r, to)) as any;
      if (r.kind === 'fetch' && a?.topics) {
        // eslint-disable-next-line @typescript-eslint/no-explicit-any
        lastAcquired = new Map(a.topics.flatMap((t: any) => t.partitions.map((p: any) => [p.partition, offsetsOf(p.acquired)])));
      }
      return a;
    },
    versions: async () => ({ min: 1, max: 2 }),
    refresh: o.refresh ?? (async () => undefined),
    decode: async (_t, partition) => {
      const records = o.decode ? o.decode(partition) : (lastAcquired.get(partition) ?? []).map((off) => rec(partition, off));
      return { records, through: records.length ? Math.max(...records.map((r) => r.offset)) : -1 };
    },
    close: async () => undefined,
  };
}

export function host(transport: ShareTransport, over: Partial<SessionHost> = {}): SessionHost & { batches: AcquiredBatch[]; moved: number[] } {
  const batches: AcquiredBatch[] = [];
  const moved: number[] = [];
  return {
    batches, moved, groupId: 'g', topic: 't', topicId: TOPIC_ID, memberId: () => 'm', transport, logger, version: 2,
    fetchLimits: { maxWaitMs: 0, maxBytes: 1 << 20, maxRecords: 100 }, wantsRecords: () => true,
    delivered: (b) => void batches.push(b), leaderMoved: (p) => void moved.push(p), acknowledged: () => undefined, fenced: () => undefined, ...over,
  };
}

export type Outcome = { partition: number; offsets: number[]; outcome: string; error?: string };

/** Records what the session or member said became of acknowledgements (`acknowledged` for a host, `onAcknowledged` for a member). */
export function recorder() {
  const outcomes: Outcome[] = [];
  const acknowledged = (partition: number, batches: ReadonlyArray<{ firstOffset: bigint; lastOffset: bigint }>, outcome: string, error?: string) =>
    void outcomes.push({ partition, offsets: offsetsOf(batches), outcome, ...(error !== undefined ? { error } : {}) });
  /** Offsets of `partition` with any outcome at all. */
  const told = (partition: number) => new Set(outcomes.filter((x) => x.partition === partition).flatMap((x) => x.offsets));
  return { outcomes, acknowledged, told };
}

/** Every offset of `partition` named in an acknowledgement batch sent to the broker. */
export const sentAcks = (t: { sent: Sent[] }, partition: number): number[] =>
  t.sent.filter((x) => x.kind === 'fetch' || x.kind === 'ack').flatMap((x) => (x.input?.topics ?? []).flatMap((tp: { partitions: Array<{ partition: number; batches: Array<{ firstOffset: bigint; lastOffset: bigint }> }> }) =>
    tp.partitions.filter((p) => p.partition === partition).flatMap((p) => offsetsOf(p.batches))));

/**
 * A transport that answers readShareGroup's two requests, ShareGroupDescribe (a Stable group with no
 * members) then DescribeShareGroupOffsets (`offsets`), on every reading: the share-lag tests' broker.
 */
export function shareGroupReading(offsets: unknown): ShareTransport {
  let n = 0;
  return {
    send: (async () => (++n % 2 === 1 ? { errorCode: 0, errorMessage: null, state: 'Stable', assignor: 'simple', members: [] } : offsets)) as ShareTransport['send'],
    versions: async () => ({ min: 0, max: 1 }),
    refresh: async () => undefined,
    decode: async () => ({ records: [], through: -1 }),
    close: async () => undefined,
  };
}
