/** Messages between the poller's thread and a handler's worker thread. */
import type { EventSource } from '../event/build-event.ts';
import type { PackedRecords } from './record-transfer.ts';
import type { InvokeError } from './types.ts';

export interface WorkerContextFields {
  functionName: string;
  functionVersion: string;
  invokedFunctionArn: string;
  memoryLimitInMB: string;
  awsRequestId: string;
  logGroupName: string;
  logStreamName: string;
  /** Epoch ms after which the invocation is stopped. */
  deadlineMs: number;
}

/** The records travel packed (record-transfer.ts); the worker builds the event from them. */
export type ToWorker = { type: 'invoke'; id: number; records: PackedRecords; source: EventSource; context: WorkerContextFields };

/** A console call of the handler's, on the same port as its result, so it is printed before the outcome. `id`: the invocation running then. */
export type WorkerLog = { type: 'log'; id?: number; level: 'log' | 'info' | 'warn' | 'error' | 'debug'; text: string };

/**
 * What the handler wrote to process.stdout or stderr, as it wrote it (decoded; a character split
 * across writes waits for its end), on the same port: the poller's thread cuts the lines, so the
 * rest of one is printed even when the worker cannot end it (timed out, dead). `id` as above.
 */
export type WorkerWrite = { type: 'write'; id?: number; stream: 'stdout' | 'stderr'; text: string };

export type FromWorker =
  | { type: 'ready' }
  | WorkerLog
  | WorkerWrite
  | { type: 'load-error'; message: string }
  | { type: 'result'; id: number; ok: true; payload: unknown }
  | { type: 'result'; id: number; ok: false; error: InvokeError };
