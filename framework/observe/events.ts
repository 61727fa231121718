/**
 * Instrumentation as named events. Emitting costs nothing when no one listens, so the
 * poller emits freely; the terminal view, metrics and tests subscribe.
 */
import { EventEmitter } from 'node:events';
import type { InvokeFailureKind } from '../invoke/types.ts';

export interface SluiceEvents {
  /**
   * `batchesRunning`: this member's batches still running when it joined (absent: none). Only a
   * rejoin kafkajs makes from inside a fetch (a moved leader, an unknown partition) has any: the
   * rejoins the poller hands back wait for every batch to end.
   */
  'group.join': { groupId: string; memberId: string; isLeader: boolean; assignment: Record<string, number[]>; durationMs: number; batchesRunning?: number };
  'group.rebalancing': { groupId: string; memberId: string };
  /** A heartbeat or commit learned that the group is rebalancing: no new chunk starts. */
  /** `partitions`: the ones revoked, when the rebalance is incremental (librdkafka); absent: all of the member's (kafkajs's eager protocol). */
  'group.rebalance_detected': { groupId: string; memberId: string; where: string; reason: string; partitions?: number[] };
  /** This member rejoined after a rebalance it had detected. */
  'group.rebalanced': { groupId: string; memberId: string; durationMs: number; assignment: Record<string, number[]>; /** An incremental revocation (KIP-848): only these partitions were handed back. */ revoked?: number[] };
  /** kafkajs's consumer stopped (it never restarts itself here: the trigger's supervisor does). */
  'group.crash': { groupId: string; error: Error };
  /** A trigger's consumer stopped; a new member starts after `restartInMs`. */
  'trigger.consumer_stopped': { functionName: string; groupId: string; topic: string; error: string; consecutive: number; restartInMs: number };
  /** A new member of a trigger whose consumer had stopped is running. */
  'trigger.consumer_restarted': { functionName: string; groupId: string; topic: string; restarts: number };
  /** A trigger stopped more times in a row than maxConsumerRestarts allows: the poller exits. */
  'trigger.failed': { functionName: string; groupId: string; topic: string; error: string; restarts: number };
  /** `highWatermark`: the partition's log end as the fetch saw it. */
  'poller.batch_received': { functionName: string; topic: string; partition: number; count: number; firstOffset: number; lastOffset: number; lag: number; highWatermark: number };
  'poller.chunk_start': { functionName: string; topic: string; partition: number; count: number; firstOffset: number; lastOffset: number; attempt: number; bytes: number; fetchedAt: number };
  'poller.chunk_end': { functionName: string; topic: string; partition: number; count: number; firstOffset: number; lastOffset: number; attempt: number; bytes: number; fetchedAt: number; ok: boolean; durationMs: number; /** The invocation's request id (the handler's context.awsRequestId; its output lines carry it in JSON). */ requestId?: string; /** The function answered, naming this offset as the first it failed (ReportBatchItemFailures). */ reportedFailedFrom?: number; /** `ok`, but its ReportBatchItemFailures answer could not be read: the whole chunk counts as failed (why). */ malformedResponse?: string; error?: string; kind?: InvokeFailureKind; /** The handler's stack, source-mapped to its sources, when it threw. */ stack?: string };
  /** The next chunk would not end inside the poll interval: back to the group first. */
  'poller.budget_exhausted': { functionName: string; topic: string; partition: number; nextOffset: number; elapsedMs: number; timeoutMs: number; maxPollIntervalMs: number };
  /** A failing set split in two (bisectBatchOnFunctionError). */
  'poller.bisected': { functionName: string; topic: string; partition: number; firstOffset: number; sizes: number[] };
  'poller.sent_to_destination': { functionName: string; topic: string; partition: number; offsets: number[]; reason: string; destination: string; attempts: number };
  'poller.destination_failed': { functionName: string; topic: string; partition: number; offsets: number[]; reason: string; destination: string; error: string };
  /** A record that could not be invoked (too large) with no destination set: logged and skipped. */
  'poller.skipped': { functionName: string; topic: string; partition: number; offsets: number[]; reason: string };
  /** The schema registry did not answer: the partition's batch waits and is fetched again after `delayMs`. */
  'poller.registry_unavailable': { functionName: string; topic: string; partition: number; firstOffset: number; inARow: number; delayMs: number; error: string };
  /** A partition's log ends below what this member committed (recreated topic, truncated log): its remembered state was dropped. */
  'poller.log_truncated': { groupId: string; topic: string; partition: number; committed: number; logEnd: number };
  /** The handler returned batchItemFailures to a trigger without ReportBatchItemFailures: ignored, the chunk committed as done. */
  'poller.item_failures_ignored': { functionName: string; topic: string; partition: number; firstOffset: number; count: number };
  /**
   * Queue mode: records a share fetch acquired and handed to the runner, from `leader` (a node id),
   * their offsets as inclusive `ranges`; `redelivered` of them at a delivery count above 1.
   */
  'queue.acquired': { functionName: string; topic: string; partition: number; count: number; redelivered: number; leader: number; ranges: ReadonlyArray<{ from: number; until: number }> };
  /** Queue mode: records the runner acknowledged (accepted, released for another delivery, rejected after the destination took them). */
  'queue.acknowledged': { functionName: string; topic: string; partition: number; type: 'accept' | 'release' | 'reject'; count: number };
  /**
   * Queue mode: what became of acknowledgements, per partition: `applied` by the broker, `refused`
   * by it or `unsent` (their records go to a member again), or `unknown` (in flight when a request
   * failed: sent again). `error` says why for all but `applied`; `ranges` are inclusive.
   */
  'queue.ack_result': { functionName: string; topic: string; partition: number; ranges: ReadonlyArray<{ from: number; until: number; type: QueueAckName }>; outcome: 'applied' | 'refused' | 'unsent' | 'unknown'; error?: string };
  /**
   * Queue mode, every few seconds: the share group's backlog per partition as the broker counts it
   * (records not acknowledged yet, those in flight included), read by one member for the whole group.
   * Every partition the topic has at the reading is listed (`lag` null: not known this time); one
   * not listed is gone (the topic was made again with fewer).
   */
  'queue.lag': { functionName: string; topic: string; groupId: string; partitions: ReadonlyArray<{ partition: number; lag: number | null }> };
  /** Records that matched no filter pattern: committed without an invocation. */
  'poller.filtered': { functionName: string; topic: string; partition: number; count: number };
  /** `done`: parallelizationFactor > 1, the ranges beyond `offset` the refused commit marked done. */
  'poller.commit_refused': { functionName: string; topic: string; partition: number; offset: number; reason: 'not-owned' | 'refused' | 'metadata-too-large'; error?: string; done?: ReadonlyArray<{ from: number; until: number }> };
  /**
   * parallelizationFactor > 1: `metadataBytes`, the length of the metadata the commit carried (0 for
   * none), `doneBeyond`, the records it marks done beyond `offset`, and `done`, their ranges.
   */
  'poller.commit': { functionName: string; groupId: string; topic: string; partition: number; offset: number; durationMs: number; metadataBytes?: number; doneBeyond?: number; done?: ReadonlyArray<{ from: number; until: number }> };
  /**
   * parallelizationFactor > 1: how many chunks of the partition run now (after each start and end),
   * and whether records wait because the commit metadata's window is full.
   */
  'poller.partition_parallel': { functionName: string; topic: string; partition: number; inFlight: number; windowFull: boolean };
  /**
   * What a new owner of the partition found beside the committed offset: `done` ranges it skips
   * (`skipped` records), none, or metadata it cannot use (`foreign`, `malformed`, `stale`: ignored, so
   * those records are invoked again, never skipped).
   */
  'poller.commit_metadata': { functionName: string; topic: string; partition: number; offset: number; kind: 'done' | 'none' | 'foreign' | 'malformed' | 'stale'; skipped: number; reason?: string };
  /** `notInvoked`: the function was never reached; this retry costs no attempt. */
  /** `untilSuccess`: the policy retries without end (no maximumRetryAttempts, no record age): only success moves the partition on. */
  /** `keyWaits`: parallelizationFactor > 1, only the records' keys wait, not the partition. */
  /** `fetchWaitMs`: the retry runs at the first fetch after `delayMs`, up to this much later (the fetch in flight, and its own with a batching window). */
  'poller.retry_scheduled': { functionName: string; topic: string; partition: number; offset: number; attempt: number; delayMs: number; fetchWaitMs?: number; notInvoked?: true; untilSuccess?: true; keyWaits?: true };
  'poller.heartbeat': { groupId: string; ok: boolean };
}

export type SluiceEventName = keyof SluiceEvents;

export class Instrumentation {
  private readonly emitter = new EventEmitter();

  on<K extends SluiceEventName>(name: K, listener: (payload: SluiceEvents[K]) => void): () => void {
    this.emitter.on(name, listener);
    return () => this.emitter.off(name, listener);
  }

  /**
   * Tells every listener, each whatever another did: a listener that throws (a bug in a view or
   * the metrics) is reported, once per event, and never reaches the poller, where it would have
   * failed a chunk that succeeded (its records run again) or kept the rest from being told.
   */
  emit<K extends SluiceEventName>(name: K, payload: SluiceEvents[K]): void {
    if (this.emitter.listenerCount(name) === 0) return;
    for (const listener of this.emitter.listeners(name)) {
      try {
        (listener as (p: SluiceEvents[K]) => void)(payload);
      } catch (e) {
        this.threw(name, e);
      }
    }
  }

  listening(name: SluiceEventName): boolean {
    return this.emitter.listenerCount(name) > 0;
  }

  private readonly reported = new Set<SluiceEventName>();

  private threw(name: SluiceEventName, e: unknown): void {
    if (this.reported.has(name)) return;
    this.reported.add(name);
    process.emitWarning(`a listener of ${name} threw (reported once; the poller went on): ${thrownText(e)}`, { code: 'SLUICE_LISTENER_THREW' });
  }
}

/** What a listener threw, as text, never throwing itself (String() of an object without a prototype does, a revoked Proxy's read too). */
function thrownText(e: unknown): string {
  try {
    return String((e as Error | null | undefined)?.stack ?? e);
  } catch {
    return 'a value with no string form';
  }
}

/** An acknowledgement's type as events name it (KIP-932's GAP is an offset with no record). */
export type QueueAckName = 'gap' | 'accept' | 'release' | 'reject';
