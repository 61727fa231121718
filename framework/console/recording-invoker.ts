/**
 * The invoker the pollers get when the console runs: the same invoker, with each invocation
 * written into the console's history (its records, request id, outcome and answer). The request
 * id is chosen here, before the call, so the lines the handler writes while it runs (the local
 * invoker's log tap) land on the right invocation. Nothing else changes: the result returned is
 * the inner invoker's.
 */
import { randomUUID } from 'node:crypto';
import type { Invoker, InvokeRequest, InvokeResult } from '../invoke/types.ts';
import type { Invocation, InvocationHistory } from './history.ts';

/** The attempt recorded is the request's, as the poller counts them (1 if it does not say). */
export function recordingInvoker(
  inner: Invoker, history: InvocationHistory,
): Invoker & { replay(request: InvokeRequest): Promise<{ entry: Invocation; result: InvokeResult }> } {
  const run = async (request: InvokeRequest, replay: boolean) => {
    const requestId = request.requestId ?? randomUUID();
    const entry = history.start({ functionName: request.functionName, records: request.records, source: request.source, requestId, ...(replay ? { replay } : { attempt: request.attempt ?? 1 }) });
    let result: InvokeResult;
    try {
      result = await inner.invoke({ ...request, requestId });
    } catch (e) {
      history.end(entry, { ok: false, durationMs: Date.now() - entry.startedAt, error: { kind: 'error', name: (e as Error).name ?? 'Error', message: (e as Error).message ?? String(e) } });
      throw e;
    }
    history.end(entry, result.ok ? { ok: true, durationMs: result.durationMs, payload: result.payload, requestId: result.requestId } : { ok: false, durationMs: result.durationMs, error: result.error, requestId: result.requestId });
    return { entry, result };
  };
  return {
    get overheadMs() {
      return inner.overheadMs;
    },
    prepare: () => inner.prepare(),
    invoke: async (request) => (await run(request, false)).result,
    /** An invocation from the console: recorded as a replay, never committed (no poller sees its result). */
    replay: (request) => run(request, true),
    ...(inner.stopWatching ? { stopWatching: () => inner.stopWatching!() } : {}),
    close: () => inner.close(),
  };
}
