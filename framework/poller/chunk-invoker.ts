/**
 * Invokes one chunk: builds its event, heartbeats the group from this thread while the
 * handler runs in its worker (so a handler that blocks its own thread cannot stop them),
 * and reports the chunk's start and end.
 */
import type { TriggerSpec } from '../config/types.ts';
import { readBatchResponse } from '../event/batch-response.ts';
import type { EventSource } from '../event/build-event.ts';
import { randomUUID } from 'node:crypto';
import type { KafkaRecord } from '../event/record.ts';
import { thrownError } from '../invoke/thrown.ts';
import type { Invoker, InvokeResult } from '../invoke/types.ts';
import type { PartitionBatch } from '../kafka/member-port.ts';
import type { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import type { ChunkStarted, ChunkWatcher, WatchedRequest } from './chunk-watcher.ts';
import { withHeartbeats } from './keep-alive.ts';
import type { WorkItem } from './work-plan.ts';

export class ChunkInvoker {
  constructor(
    private readonly trigger: TriggerSpec,
    private readonly invoker: Invoker,
    private readonly events: Instrumentation,
    private readonly logger: Logger,
    private readonly heartbeatIntervalMs: number,
    private readonly source: EventSource,
    /** The console's (chunk-watcher.ts), when it runs. */
    private readonly watcher?: ChunkWatcher,
  ) {}

  /** `heartbeats: false`: the caller already heartbeats the group around the whole run (parallel chunks of a partition). */
  async invoke(batch: Pick<PartitionBatch, 'topic' | 'partition' | 'fetchedAt' | 'heartbeat'>, item: WorkItem, heartbeats = true): Promise<InvokeResult> {
    const chunk = item.records;
    const base = {
      functionName: this.trigger.functionName, topic: batch.topic, partition: batch.partition, count: chunk.length,
      firstOffset: chunk[0]!.offset, lastOffset: chunk[chunk.length - 1]!.offset, attempt: item.attempts + 1, bytes: item.bytes, fetchedAt: batch.fetchedAt,
    };
    this.events.emit('poller.chunk_start', base);
    // Watched, the request id is chosen here, so that the lines the handler writes name this
    // invocation (the local invoker runs with it; Lambda answers with its own, which chunk_end names).
    const request = { functionName: this.trigger.functionName, records: chunk, source: this.source, timeoutMs: this.trigger.timeoutMs, attempt: base.attempt, requestId: this.watcher ? randomUUID() : undefined };
    const { watcher } = this;
    const watched = watcher ? (request as WatchedRequest) : undefined;
    if (watched) watcher!.started(base, watched);
    const call = () => this.invoker.invoke(request);
    let result: InvokeResult;
    try {
      result = heartbeats ? await withHeartbeats(batch, this.heartbeatIntervalMs, this.logger, call) : await call();
    } catch (e) {
      // An invoker that threw instead of answering: the watcher still sees the invocation end.
      // Read only when watched, and whatever was thrown (null has no name): the rejection goes on as it came.
      if (watched) {
        const error = thrownError(e);
        watcher!.ended(watched, { ...base, ok: false, durationMs: 0, requestId: watched.requestId, error: error.message, kind: error.kind }, { ok: false, error, durationMs: 0, requestId: watched.requestId });
      }
      throw e;
    }
    return this.ended(base, chunk, result, watched);
  }

  /** The answer read (partial batch responses) and told: the chunk_end event, and the watcher. */
  private ended(base: ChunkStarted, chunk: readonly KafkaRecord[], result: InvokeResult, watched?: WatchedRequest): InvokeResult {
    // With partial batch responses, an answer may name failed records: the chunk is not all ok.
    const reported = result.ok && this.trigger.failure.reportBatchItemFailures ? readBatchResponse(result.payload, chunk) : undefined;
    const partly = reported?.ok && reported.failedFrom !== undefined ? { reportedFailedFrom: reported.failedFrom } : reported && !reported.ok ? { malformedResponse: reported.reason } : {};
    const end = { ...base, ok: result.ok, durationMs: result.durationMs, requestId: result.requestId, ...partly, ...(result.ok ? {} : { error: result.error.message, kind: result.error.kind, ...(result.error.stack ? { stack: result.error.stack } : {}) }) };
    this.events.emit('poller.chunk_end', end);
    if (watched) this.watcher!.ended(watched, end, result);
    return result;
  }
}
