/**
 * PartitionRun's own decisions, with a partition batch, invoker and delivery of the test's making
 * (the broker-backed behaviour is in tests/integration/parallel.test.ts): the commits it makes as
 * chunks end out of order, what it does when the broker finds the metadata too long, and that a
 * rebalance starts no more chunks.
 */
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import type { ChunkInvoker } from '../poller/chunk-invoker.ts';
import type { Delivery } from '../poller/delivery.ts';
import type { WorkItem } from '../poller/work-plan.ts';
import { decodeMetadata } from './commit-metadata.ts';
import { orderingKeyOf } from './key-scheduler.ts';
import { PartitionRun, type RunContext } from './partition-run.ts';
import { PartitionState, pendingOf, type Pending } from './partition-state.ts';

const record = (offset: number, key: string): KafkaRecord =>
  ({ topic: 't', partition: 0, offset, timestamp: Date.now(), timestampType: 'CREATE_TIME', key: Buffer.from(key), value: Buffer.from('v'), headers: [] }) as unknown as KafkaRecord;

const triggerWith = (batchSize: number, ordering?: 'unordered') => ({ functionName: 'f', batchSize, parallelizationFactor: 2, ...(ordering ? { ordering } : {}), timeoutMs: 1_000, failure: { maximumRetryAttempts: -1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure: undefined } }) as unknown as TriggerSpec;

interface Setup {
  /** How long the invocation of a chunk starting at this offset takes. */
  durations: Record<number, number>;
  /** Chunks starting at these offsets fail their first invocation. */
  failOnce?: number[];
  /** Answers to commits in order ('ok' after they run out). */
  answers?: Array<'ok' | 'refused' | 'metadata-too-large'>;
  active?: () => boolean;
  batchSize?: number;
  /** Offsets given up on before any invocation (a schema failure), whose sends fail (no destination). */
  giveUps?: number[];
  /** The group's committed offset the state starts from (undefined: none). */
  committed?: number | undefined;
  /** With `committed` undefined: the group holds no commit (else one was set aside or not read). */
  uncommitted?: boolean;
  ordering?: 'unordered';
}

function setup(records: KafkaRecord[], o: Setup) {
  const commits: Array<{ next: number; done: string }> = [];
  const invoked: number[][] = [];
  const shrunk: number[] = [];
  const sends: number[][] = [];
  let maxBytes = 4096;
  const batch = {
    topic: 't', partition: 0, records, highWatermark: records.at(-1)!.offset + 1, fetchedAt: Date.now(), joinId: 'm/1',
    heartbeat: async () => undefined, isActive: o.active ?? (() => true), pauseFor: () => undefined, fetchFrom: () => undefined, fetchFromLater: () => undefined,
  } as unknown as PartitionBatch;
  const context: RunContext = {
    trigger: triggerWith(o.batchSize ?? 2, o.ordering), events: new Instrumentation(), logger: createLogger('test', { level: 'error' }), heartbeatIntervalMs: 1_000, invocationsShown: false,
    maxPayloadBytes: 6_000_000, envelopeBytes: 100,
    invoker: {
      invoke: async (_b: PartitionBatch, item: WorkItem) => {
        invoked.push(item.records.map((r) => r.offset));
        const first = item.records[0]!.offset;
        await new Promise((r) => setTimeout(r, o.durations[first] ?? 1));
        if (o.failOnce?.includes(first) && item.attempts === 0) return { ok: false, error: { kind: 'error', name: 'Error', message: 'planned' }, durationMs: 1, requestId: 'r' };
        return { ok: true, payload: null, durationMs: 1, requestId: 'r' };
      },
    } as unknown as ChunkInvoker,
    delivery: {
      sendTimeoutMs: 1_000,
      commitWith: async (_b: PartitionBatch, next: number, metadata: string | null) => {
        const answer = o.answers?.shift() ?? 'ok';
        const d = decodeMetadata(metadata, next);
        commits.push({ next, done: `${answer}:${d.kind === 'done' ? d.ranges.map((r) => `${r.from}-${r.until}`).join(',') : d.kind}` });
        return answer;
      },
    } as unknown as Delivery,
    policy: {
      fitsBudget: () => true,
      warnIgnoredFailures: () => undefined,
      sendGivenUp: async (_b: PartitionBatch, item: WorkItem, rs: KafkaRecord[]) => {
        if (!rs.some((r) => o.giveUps?.includes(r.offset))) return true;
        sends.push(rs.map((r) => r.offset));
        item.sendFailures = (item.sendFailures ?? 0) + 1;
        return false;
      },
    },
    metadataMaxBytes: () => maxBytes,
    metadataTooLarge: (at) => {
      shrunk.push(at);
      maxBytes = 0;
    },
  };
  const keyOf = orderingKeyOf(o.ordering);
  const state = 'committed' in o ? new PartitionState('m/1', o.committed, [], null, o.uncommitted ?? false) : new PartitionState('m/1', 0);
  const verdicts = new Map<number, Pending>(records.map((r) => [r.offset, pendingOf(r, 10, o.giveUps?.includes(r.offset) ? { reason: 'SCHEMA_NOT_FOUND' } : undefined, keyOf)]));
  state.admit(records, verdicts, records.at(-1)!.offset + 1, 24_432);
  return { run: new PartitionRun(context, batch, state), commits, invoked, shrunk, sends, state };
}

describe('PartitionRun', () => {
  it('commits the lowest offset owed as chunks end out of order, with what is done beyond it', async () => {
    const records = [record(0, 'a'), record(1, 'a'), record(2, 'b'), record(3, 'b')];
    const { run, commits, invoked } = setup(records, { durations: { 0: 60, 2: 5 } });
    await run.run();
    expect(invoked).toEqual([[0, 1], [2, 3]]);
    expect(commits).toEqual([{ next: 0, done: 'ok:2-3' }, { next: 4, done: 'ok:none' }]);
  });

  it('makes no commit for a partition the group never committed until a record is done', async () => {
    const records = [record(5, 'a'), record(6, 'b')];
    const { run, commits } = setup(records, { durations: { 5: 30, 6: 5 }, batchSize: 1, committed: undefined, uncommitted: true });
    await run.run();
    // It once committed the first fetched offset (5) at the run's start: nothing had moved.
    expect(commits).toEqual([{ next: 5, done: 'ok:6-6' }, { next: 7, done: 'ok:none' }]);
  });

  it('commits the first fetched offset at once over a group commit it set aside (past the log end) or could not read', async () => {
    const records = [record(5, 'a'), record(6, 'b')];
    const { run, commits } = setup(records, { durations: { 5: 30, 6: 5 }, batchSize: 1, committed: undefined, uncommitted: false });
    await run.run();
    // A restart must not resume at the stale offset once the new log grows past it.
    expect(commits[0]).toEqual({ next: 5, done: 'ok:none' });
    expect(commits.at(-1)).toEqual({ next: 7, done: 'ok:none' });
  });

  it('ordering unordered: a failing record holds only itself, even records of its own key run past it', async () => {
    const records = [record(0, 'a'), record(1, 'a'), record(2, 'a'), record(3, 'a')];
    const { run, invoked, commits } = setup(records, { durations: {}, failOnce: [0], batchSize: 1, ordering: 'unordered' });
    await run.run();
    // 1-3 share 0's key and run while 0 waits for its retry (a later batch runs it); the commit stays at 0.
    expect(invoked).toEqual([[0], [1], [2], [3]]);
    expect(commits.at(-1)).toEqual({ next: 0, done: 'ok:1-3' });
    // By key, they wait behind it.
    const byKey = setup(records, { durations: {}, failOnce: [0], batchSize: 1 });
    await byKey.run.run();
    expect(byKey.invoked).toEqual([[0]]);
  });

  it('runs the keyed records past a record given up on whose send fails: only its (null) key waits', async () => {
    const keyed = (offset: number, id: number) => record(offset, `id${id}`);
    const nul = (offset: number) => ({ ...record(offset, 'x'), key: null }) as unknown as KafkaRecord;
    const records = [keyed(0, 0), keyed(1, 1), keyed(2, 2), keyed(3, 3), nul(4), keyed(5, 0), keyed(6, 1), nul(7), nul(8), keyed(9, 0), keyed(10, 1), keyed(11, 2)];
    const { run, invoked, sends, commits } = setup(records, { durations: { 0: 20, 2: 20 }, giveUps: [4, 7, 8] });
    await run.run();
    expect(invoked.flat().sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 5, 6, 9, 10, 11]);
    // 4's send failed once and it waits (7 and 8 share its null key); the rest is done beyond it.
    expect(sends).toEqual([[4]]);
    expect(commits.at(-1)).toEqual({ next: 4, done: 'ok:5-6,9-11' });
  });

  it('commits again with less metadata when the broker finds it too long, and keeps the bound lower', async () => {
    const records = [record(0, 'a'), record(1, 'a'), record(2, 'b'), record(3, 'b')];
    const { run, commits, shrunk } = setup(records, { durations: { 0: 60, 2: 5 }, answers: ['metadata-too-large'] });
    await run.run();
    expect(shrunk).toHaveLength(1);
    // With no room for metadata the state equals the commit it started from (0, none): nothing to commit until 0 is done.
    expect(commits).toEqual([{ next: 0, done: 'metadata-too-large:2-3' }, { next: 4, done: 'ok:none' }]);
  });

  it('waits for a free slot when a held retry comes due while every slot is busy (it once spun there, starving the event loop)', async () => {
    const records = [record(0, 'a'), record(1, 'b'), record(2, 'c')];
    const { run, invoked, commits } = setup(records, { durations: { 1: 1_500, 2: 1_500 }, failOnce: [0], batchSize: 1 });
    await run.run();
    expect(invoked).toEqual([[0], [1], [2], [0]]); // 0 fails, 2 takes its slot, 0 retries once 1 or 2 ended
    expect(commits.at(-1)).toEqual({ next: 3, done: 'ok:none' });
  });

  it('does not wait on a held retry that comes due during a rebalance: the running chunks end the run', async () => {
    const records = [record(0, 'a'), record(1, 'b')];
    let active = true;
    const { run, invoked, state } = setup(records, { durations: { 1: 1_200 }, failOnce: [0], active: () => active, batchSize: 1 });
    setTimeout(() => (active = false), 50);
    await run.run();
    expect(invoked).toEqual([[0], [1]]);
    expect(state.held.map((l) => l.items[0]!.records.map((r) => r.offset))).toEqual([[0]]); // kept for the partition's next run
  });

  it('starts no chunk once a rebalance began; the running ones finish and commit', async () => {
    const records = [record(0, 'a'), record(1, 'a'), record(2, 'a'), record(3, 'a'), record(4, 'b'), record(5, 'b')];
    let active = true;
    const { run, commits, invoked, state } = setup(records, { durations: { 0: 30, 4: 5 }, active: () => active });
    setTimeout(() => (active = false), 15);
    await run.run();
    expect(invoked).toEqual([[0, 1], [4, 5]]); // 2-3 (key a, after 0-1) never started
    expect(commits.at(-1)).toEqual({ next: 2, done: 'ok:4-5' });
    expect(state.pending.map((p) => p.offset)).toEqual([2, 3]);
  });
});
