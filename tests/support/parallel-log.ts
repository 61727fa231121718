/**
 * ParallelPartitions (parallelizationFactor > 1) over a partition log and a group commit of the
 * test's making, for regressions and the model-based test of the parallel state machine: batches
 * fetched from where the last one said to fetch, each join's commit read back as an engine would
 * (librdkafka's with C's NUL), an invoker whose outcome per record the test decides, and every
 * invocation, commit and destination send written down.
 */
import type { TriggerSpec } from '../../framework/config/types.ts';
import type { KafkaRecord } from '../../framework/event/record.ts';
import type { CommitResult, PartitionBatch } from '../../framework/kafka/member-port.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { createLogger } from '../../framework/observe/logger.ts';
import { ParallelPartitions } from '../../framework/parallel/parallel-partitions.ts';
import type { ChunkInvoker } from '../../framework/poller/chunk-invoker.ts';
import type { Delivery } from '../../framework/poller/delivery.ts';
import type { WorkItem } from '../../framework/poller/work-plan.ts';

export interface Invocation {
  offsets: number[];
  attempts: number;
  ok: boolean;
  /** The offsets it finished: all when ok, none when it failed, those below the lowest reported with ReportBatchItemFailures. */
  finished: number[];
  /** Which poller ran it: 0, then one more at each restart (a new process, its memory gone). */
  owner: number;
}

export interface ParallelLogOptions {
  factor: number;
  batchSize: number;
  /** Whether the invocation of `offsets` (its `attempts`-th retry) fails. */
  fails?: (offsets: number[], attempts: number) => boolean;
  /**
   * ReportBatchItemFailures: an invocation `poison` says holds a poison record returns them in
   * batchItemFailures (the ones below the lowest are done) instead of failing.
   */
  report?: { poison: (offset: number) => boolean };
  ordering?: 'unordered';
  /** Lambda's payload limit (the envelope is 100 bytes): chunks cut by bytes as well. */
  maxPayloadBytes?: number;
  /** Answers to commits, in order ('ok' once they run out). */
  commitAnswers?: Array<'ok' | 'refused'>;
  /** Asked after commitAnswers ran out: whether the coordinator refuses this commit. */
  refuse?: () => boolean;
  bisectBatchOnFunctionError?: boolean;
  /** librdkafka's binding ends committed metadata with C's NUL: it comes back with it. */
  metadataNul?: boolean;
  maximumRetryAttempts?: number;
  /** The invoker waits for this before answering (default: answers at once). */
  gate?: (offsets: number[]) => Promise<void>;
}

export function parallelLog(o: ParallelLogOptions) {
  const log: KafkaRecord[] = [];
  /** The log's end: the next offset written (a control record takes one too, and no reader gets it). */
  let logEnd = 0;
  let group: { offset: number; metadata: string | null } | undefined;
  let fetchPos = 0;
  /** fetchFromLater's ask: from where, and from when (epoch ms), unless a batch begins before. */
  let later: { offset: number; at: number } | undefined;
  let joins = 0;
  const invocations: Invocation[] = [];
  const commits: Array<{ next: number; metadata: string | null; answer: string }> = [];
  const sent: number[] = [];
  const events = new Instrumentation();
  const trigger = {
    functionName: 'f', topic: 't', batchSize: o.batchSize, parallelizationFactor: o.factor, timeoutMs: 1_000,
    ...(o.ordering ? { ordering: o.ordering } : {}),
    failure: { maximumRetryAttempts: o.maximumRetryAttempts ?? -1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: !!o.bisectBatchOnFunctionError, reportBatchItemFailures: !!o.report, onFailure: undefined },
  } as unknown as TriggerSpec;
  const answers = [...(o.commitAnswers ?? [])];
  let owner = 0;
  const newParallel = () => new ParallelPartitions({
    trigger, events, logger: createLogger('test', { level: 'error' }), heartbeatIntervalMs: 1_000, invocationsShown: true, maxPayloadBytes: o.maxPayloadBytes ?? 6_000_000,
    envelopeBytes: () => 100,
    ...(o.metadataNul ? { metadataBytesAdded: 1 } : {}),
    readCommitted: async () => new Map(group ? [[0, { offset: group.offset, metadata: group.metadata === null ? '' : o.metadataNul ? `${group.metadata}\0` : group.metadata }]] : []),
    invoker: {
      invoke: async (_b: PartitionBatch, item: WorkItem) => {
        const offsets = item.records.map((r) => r.offset);
        await o.gate?.(offsets);
        if (o.report) {
          const reported = offsets.filter(o.report.poison);
          const lowest = reported.length ? Math.min(...reported) : Infinity;
          invocations.push({ offsets, attempts: item.attempts, ok: reported.length === 0, finished: offsets.filter((x) => x < lowest), owner });
          const batchItemFailures = reported.map((offset) => ({ itemIdentifier: { partition: 't-0', offset } }));
          return { ok: true, payload: reported.length ? { batchItemFailures } : null, durationMs: 1, requestId: 'r' };
        }
        const ok = !o.fails?.(offsets, item.attempts);
        invocations.push({ offsets, attempts: item.attempts, ok, finished: ok ? offsets : [], owner });
        return ok ? { ok: true, payload: null, durationMs: 1, requestId: 'r' } : { ok: false, error: { kind: 'error', name: 'Error', message: 'planned' }, durationMs: 1, requestId: 'r' };
      },
    } as unknown as ChunkInvoker,
    delivery: {
      sendTimeoutMs: 1_000,
      commitWith: async (batch: PartitionBatch, next: number, metadata: string | null) => {
        const answer = answers.shift() ?? (o.refuse?.() ? 'refused' : 'ok');
        commits.push({ next, metadata, answer });
        if (answer !== 'ok') return answer;
        const r = await batch.commit(next, { metadata });
        return r.ok ? 'ok' : 'refused';
      },
    } as unknown as Delivery,
    policy: {
      fitsBudget: () => true,
      warnIgnoredFailures: () => undefined,
      sendGivenUp: async (_b: PartitionBatch, _item: WorkItem, rs: KafkaRecord[]) => {
        sent.push(...rs.map((r) => r.offset));
        return true;
      },
    },
  });
  let parallel = newParallel();
  let joinId = 'm/0';

  return {
    events,
    invocations,
    commits,
    sent,
    /** The group's commit as the broker holds it. */
    group: () => group,
    setGroup: (g: { offset: number; metadata: string | null } | undefined) => void (group = g),
    /** Where the next batch begins. */
    fetchPosition: () => fetchPos,
    /** Appends records (keys given) to the log. */
    append(keys: string[]): void {
      for (const key of keys) {
        log.push({ topic: 't', partition: 0, offset: logEnd++, timestamp: Date.now(), timestampType: 'CREATE_TIME', key: Buffer.from(key), value: Buffer.from('v'), headers: [] } as unknown as KafkaRecord);
      }
    },
    /** A new join of the partition (a rebalance, a restart): the next batch reads the group's commit anew. */
    rejoin(): void {
      joinId = `m/${++joins}`;
    },
    /** A restart: the member fetches from the group's commit (or the log's start), with a new join. */
    restartFromCommit(): void {
      this.rejoin();
      fetchPos = group?.offset ?? 0;
      later = undefined;
    },
    /** A new poller process: nothing of the last one's memory, fetching from the group's commit. */
    restart(): void {
      owner++;
      parallel = newParallel();
      this.restartFromCommit();
    },
    /** The offsets the log holds. */
    size: () => logEnd,
    /** A transaction marker: an offset no reader gets. */
    appendMarker(): void {
      logEnd++;
    },
    /** Whether the offset holds a record a reader gets (not a marker). */
    isRecord: (offset: number) => log.some((r) => r.offset === offset),
    keyOf: (offset: number) => log.find((r) => r.offset === offset)!.key!.toString(),
    /**
     * Fetches up to `max` records from the fetch position and runs them as one batch; with none
     * there, from where fetchFromLater asked, once its time came (as the members do).
     */
    async batch(max = 1_000): Promise<void> {
      if (later && Date.now() >= later.at && !log.some((r) => r.offset >= fetchPos)) fetchPos = later.offset;
      const records = log.filter((r) => r.offset >= fetchPos).slice(0, max);
      if (records.length === 0) return;
      later = undefined;
      const end = records.at(-1)!.offset + 1;
      fetchPos = end;
      const batch: PartitionBatch = {
        topic: 't', partition: 0, records, highWatermark: logEnd, fetchedAt: Date.now(), joinId,
        heartbeat: async () => undefined,
        commit: async (next: number, m?: { metadata: string | null }): Promise<CommitResult> => {
          group = { offset: next, metadata: m?.metadata ?? null };
          return { ok: true };
        },
        fetchFrom: (offset: number) => void (fetchPos = offset),
        fetchFromLater: (offset: number, ms: number) => void (later = { offset, at: Date.now() + ms }),
        isActive: () => true,
        pauseFor: () => undefined,
      };
      const work = records.map((r) => ({ records: [r], attempts: 0, bytes: 10 }));
      await parallel.process(batch, records, work, end);
    },
  };
}
