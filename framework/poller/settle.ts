/**
 * Pure: an invocation's result -> from which offset the chunk failed (undefined: all done).
 * A thrown error, a timeout or a crash fails the whole chunk; with ReportBatchItemFailures
 * the handler names the records, and a malformed answer fails the whole chunk.
 */
import { readBatchResponse } from '../event/batch-response.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { InvokeError, InvokeResult } from '../invoke/types.ts';

export interface Settlement {
  failedFrom: number | undefined;
  /** Why, for logs and the destination: the error, or the malformed response. */
  error?: string;
  /**
   * Records the handler reported as failed in `batchItemFailures` although the trigger does not
   * set ReportBatchItemFailures: ignored, as AWS ignores them, so the whole chunk counts as done.
   */
  ignoredFailures?: number;
}

/** How many `batchItemFailures` an answer names (0 when it has none, or is not an object). */
function reportedFailures(payload: unknown): number {
  const list = (payload as { batchItemFailures?: unknown } | null)?.batchItemFailures;
  return Array.isArray(list) ? list.length : 0;
}

/** Frames of the handler's stack kept with its error (the destination's header bounds the whole to 1,000 characters). */
const MAX_FRAMES = 8;

/** The failure as the log and the destination carry it: kind, name and message, then the handler's own frames (source-mapped, Sluice's worker left out). */
export function describeFailure(e: InvokeError): string {
  const head = `${e.kind === 'error' ? '' : `${e.kind}: `}${e.name}: ${e.message}`;
  const frames = (e.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
  const cut = frames.findIndex((l) => /worker-runtime/.test(l));
  const own = (cut === -1 ? frames : frames.slice(0, cut)).slice(0, MAX_FRAMES);
  return own.length ? `${head}\n${own.map((l) => `    ${l.trim()}`).join('\n')}` : head;
}

export function settle(result: InvokeResult, chunk: readonly KafkaRecord[], reportBatchItemFailures: boolean): Settlement {
  const first = chunk[0]!.offset;
  if (!result.ok) return { failedFrom: first, error: describeFailure(result.error) };
  if (!reportBatchItemFailures) {
    const ignored = reportedFailures(result.payload);
    return ignored > 0 ? { failedFrom: undefined, ignoredFailures: ignored } : { failedFrom: undefined };
  }
  const read = readBatchResponse(result.payload, chunk);
  if (!read.ok) return { failedFrom: first, error: read.reason };
  return read.failedFrom === undefined ? { failedFrom: undefined } : { failedFrom: read.failedFrom, error: `the function reported offset ${read.failedFrom} as failed` };
}
