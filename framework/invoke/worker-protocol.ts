/** Messages between the poller's thread and a handler's worker thread. */
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

export type ToWorker = { type: 'invoke'; id: number; event: unknown; context: WorkerContextFields };

export type FromWorker =
  | { type: 'ready' }
  | { type: 'load-error'; message: string }
  | { type: 'result'; id: number; ok: true; payload: unknown }
  | { type: 'result'; id: number; ok: false; error: InvokeError };
