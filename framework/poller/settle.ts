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
}

export function settle(result: InvokeResult, chunk: readonly KafkaRecord[], reportBatchItemFailures: boolean): Settlement {
  const first = chunk[0]!.offset;
  if (!result.ok) return { failedFrom: first, error: `${result.error.kind === 'error' ? '' : `${result.error.kind}: `}${result.error.name}: ${result.error.message}` };
  if (!reportBatchItemFailures) return { failedFrom: undefined };
  const read = readBatchResponse(result.payload, chunk);
  if (!read.ok) return { failedFrom: first, error: read.reason };
  return read.failedFrom === undefined ? { failedFrom: undefined } : { failedFrom: read.failedFrom, error: `the function reported offset ${read.failedFrom} as failed` };
}
