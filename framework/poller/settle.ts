/**
 * Pure: an invocation's result -> from which offset the chunk failed (undefined: all done).
 * A thrown error, a timeout or a crash fails the whole chunk; with ReportBatchItemFailures
 * the handler names the records, and a malformed answer fails the whole chunk.
 */
import { readBatchResponse } from '../event/batch-response.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { InvokeResult } from '../invoke/types.ts';

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

export function settle(result: InvokeResult, chunk: readonly KafkaRecord[], reportBatchItemFailures: boolean): Settlement {
  const first = chunk[0]!.offset;
  if (!result.ok) return { failedFrom: first, error: `${result.error.kind === 'error' ? '' : `${result.error.kind}: `}${result.error.name}: ${result.error.message}` };
  if (!reportBatchItemFailures) {
    const ignored = reportedFailures(result.payload);
    return ignored > 0 ? { failedFrom: undefined, ignoredFailures: ignored } : { failedFrom: undefined };
  }
  const read = readBatchResponse(result.payload, chunk);
  if (!read.ok) return { failedFrom: first, error: read.reason };
  return read.failedFrom === undefined ? { failedFrom: undefined } : { failedFrom: read.failedFrom, error: `the function reported offset ${read.failedFrom} as failed` };
}
