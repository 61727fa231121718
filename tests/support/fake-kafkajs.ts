/**
 * kafkajs's consumer replaced for group-member tests that need a shape no broker makes on demand (a
 * rejoin while a batch runs, a batch fetched again with a trailing high watermark): the test emits
 * joins and hands batches of partition 0 of topic 't' to the member's eachBatch; the member's own
 * code runs unchanged. It records seeks, resolved offsets (with the generation they were resolved
 * in) and commits.
 */
import { EventEmitter } from 'node:events';
import { Instrumentation } from '../../framework/observe/events.ts';
import { createLogger } from '../../framework/observe/logger.ts';

export interface FakeMessage {
  offset: number;
  /** Epoch ms; now when left out. */
  timestamp?: number;
  key?: string;
}

export function fakeKafkajs() {
  const em = new EventEmitter();
  let eachBatch!: (p: unknown) => Promise<void>;
  let generation = 0;
  const seeks: Array<{ topic: string; partition: number; offset: string }> = [];
  const resolved: Array<{ generation: number; offset: string }> = [];
  const commits: Array<{ offset: number; metadata: string | null }> = [];
  const consumer = {
    events: { FETCH: 'fetch', GROUP_JOIN: 'join', HEARTBEAT: 'hb', REBALANCING: 'reb', CRASH: 'crash' },
    on: (e: string, l: (x: unknown) => void) => em.on(e, l),
    connect: async () => undefined,
    subscribe: async () => undefined,
    run: async (o: { eachBatch: typeof eachBatch }) => void (eachBatch = o.eachBatch),
    seek: (s: { topic: string; partition: number; offset: string }) => void seeks.push(s),
    disconnect: async () => undefined,
  };
  /** A join (GROUP_JOIN) with this assignment: the member's next generation. */
  const join = (assignment: Record<string, number[]>) => {
    generation++;
    em.emit('join', { payload: { memberId: 'm', memberAssignment: assignment, isLeader: true, duration: 1 } });
  };
  /** A batch of these messages (offsets, or with timestamps and keys), its high watermark past the last unless given. */
  const batch = (messages: Array<number | FakeMessage>, highWatermark?: number) => {
    const ms = messages.map((m) => (typeof m === 'number' ? { offset: m } : m));
    return eachBatch({
      batch: {
        topic: 't', partition: 0, highWatermark: String(highWatermark ?? ms.at(-1)!.offset + 1), firstOffset: () => String(ms[0]!.offset),
        messages: ms.map((m) => ({ offset: String(m.offset), key: m.key === undefined ? null : Buffer.from(m.key), value: Buffer.from('x'), timestamp: String(m.timestamp ?? Date.now()), headers: {}, attributes: 0, size: 1 })),
      },
      resolveOffset: (offset: string) => void resolved.push({ generation, offset }),
      heartbeat: async () => undefined,
      commitOffsetsIfNecessary: async (c: { topics: Array<{ partitions: Array<{ offset: string; metadata?: string | null }> }> }) => {
        const p = c.topics[0]!.partitions[0]!;
        commits.push({ offset: Number(p.offset), metadata: p.metadata ?? null });
      },
      isRunning: () => true,
      isStale: () => false,
      pause: () => () => undefined,
    });
  };
  return { kafka: { consumer: () => consumer }, join, batch, seeks, resolved, commits };
}

/** The kafkajs member's options for topic 't' on the fake: a test adds onBatch, onCrash and what it varies. */
export const fakeMemberOptions = (f: ReturnType<typeof fakeKafkajs>, more: Record<string, unknown>): never => ({
  kafka: f.kafka, groupId: 'g', topic: 't', fromBeginning: true, sessionTimeoutMs: 10_000, rebalanceTimeoutMs: 10_000,
  heartbeatIntervalMs: 1_000, maxWaitTimeMs: 100, minBytes: 1, maxBytesPerPartition: 1_000, concurrency: 1,
  logger: createLogger({ level: 'error' } as never), events: new Instrumentation(),
  ...more,
}) as never;
