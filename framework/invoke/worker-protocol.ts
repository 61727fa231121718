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

export type FromWorker =
  | { type: 'ready' }
  | { type: 'load-error'; message: string }
  | { type: 'result'; id: number; ok: true; payload: unknown }
  | { type: 'result'; id: number; ok: false; error: InvokeError };
