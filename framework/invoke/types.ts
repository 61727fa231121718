/** One interface for every transport that runs a handler: local workers, AWS Lambda. */

export interface InvokeRequest {
  functionName: string;
  event: unknown;
  /** The function's timeout; the invocation is stopped and counts as failed past it. */
  timeoutMs: number;
}

export type InvokeFailureKind = 'error' | 'timeout' | 'crash';

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
  /** Prepares every function up front (bundling, loading) so bad handlers fail at start. */
  prepare(): Promise<void>;
  invoke(request: InvokeRequest): Promise<InvokeResult>;
  close(): Promise<void>;
}
