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
  // One async frame per invocation, the request and result handed over as they are: at a firehose
  // each object or promise more is garbage thousands of times a second (bench/console-profile.ts).
  const recorded = async (request: IdentifiedRequest, entry: Invocation): Promise<InvokeResult> => {
    let result: InvokeResult;
    try {
      result = await inner.invoke(request);
    } catch (e) {
      history.end(entry, { ok: false, durationMs: Date.now() - entry.startedAt, error: { kind: 'error', name: (e as Error).name ?? 'Error', message: (e as Error).message ?? String(e) } });
      throw e;
    }
    history.end(entry, result);
    return result;
  };
  return {
    get overheadMs() {
      return inner.overheadMs;
    },
    prepare: () => inner.prepare(),
    invoke: (request) => {
      const identified = identify(request);
      return recorded(identified, history.start(identified));
    },
    /** An invocation from the console: recorded as a replay, never committed (no poller sees its result). */
    replay: async (request) => {
      const identified = identify(request);
      const entry = history.start({ ...identified, attempt: undefined, replay: true });
      return { entry, result: await recorded(identified, entry) };
    },
    ...(inner.stopWatching ? { stopWatching: () => inner.stopWatching!() } : {}),
    close: () => inner.close(),
  };
}

type IdentifiedRequest = InvokeRequest & { requestId: string };

/** The request with a request id: written out, not spread (a spread copy cost as much as the rest of the recording), every field listed (checked). */
function identify(r: InvokeRequest): IdentifiedRequest {
  if (r.requestId !== undefined) return r as IdentifiedRequest;
  return { functionName: r.functionName, records: r.records, source: r.source, timeoutMs: r.timeoutMs, attempt: r.attempt, requestId: randomUUID() } satisfies Record<keyof InvokeRequest, unknown>;
}
