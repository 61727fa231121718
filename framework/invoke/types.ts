/** One interface for every transport that runs a handler: local workers, AWS Lambda. */
import type { EventSource } from '../event/build-event.ts';
import type { KafkaRecord } from '../event/record.ts';

/**
 * One invocation: the chunk's records and where they came from. Each transport turns them
 * into the AWS event its own way (JSON for Lambda; packed bytes the worker builds from locally),
 * always with the same buildEvent, so the event bytes do not depend on the transport.
 */
export interface InvokeRequest {
  functionName: string;
  records: readonly KafkaRecord[];
  source: EventSource;
  /** The function's timeout; the invocation is stopped and counts as failed past it. */
  timeoutMs: number;
  /**
   * The invocation's request id (the handler's context.awsRequestId), chosen by the caller so what
   * the handler writes can be tied to it (the console); the lambda invoker reports Lambda's own.
   */
  requestId?: string;
  /** Which delivery of its records this invocation is, as the poller counts them (1, then a retry's 2...): what the console shows. */
  attempt?: number;
}

/** Receives each line a handler writes, with the request id of the invocation it wrote it in (none: between invocations). */
export type HandlerLogTap = (requestId: string | undefined, level: 'log' | 'info' | 'warn' | 'error' | 'debug', text: string) => void;

/**
 * `not-invoked`: the function certainly did not run (throttled past the invoker's quick retries,
 * the endpoint unreachable, the function missing during a redeploy). It is retried with backoff
 * and costs no attempt of the failure policy: records that never ran never go to a destination.
 */
export type InvokeFailureKind = 'error' | 'timeout' | 'crash' | 'not-invoked';

export interface InvokeError {
  kind: InvokeFailureKind;
  name: string;
  message: string;
  stack?: string;
}

export type InvokeResult =
  | { ok: true; payload: unknown; durationMs: number; requestId: string }
  | { ok: false; error: InvokeError; durationMs: number; requestId: string };

export interface Invoker {
  /** How long past the function's timeout an invocation may take (answers, retries): the poll budget reserves it. */
  readonly overheadMs: number;
  /** Prepares every function up front (bundling, loading) so bad handlers fail at start. */
  prepare(): Promise<void>;
  invoke(request: InvokeRequest): Promise<InvokeResult>;
  /** The run is stopping: reload nothing more (a Ctrl-C also stops esbuild's service, so a rebuild then would fail). */
  stopWatching?(): void;
  close(): Promise<void>;
}
