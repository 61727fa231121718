/**
 * The console's replay (actions.ts): the function invoked with an event from the page, recorded in
 * the history as a replay, and never committed (no poller sees its result). The poller's own
 * invocations reach the history through the console's chunk watcher (index.ts), not through here.
 */
import { randomUUID } from 'node:crypto';
import { thrownError } from '../invoke/thrown.ts';
import type { Invoker, InvokeRequest, InvokeResult } from '../invoke/types.ts';
import type { Invocation, InvocationHistory } from './history.ts';

export type Replay = (request: InvokeRequest) => Promise<{ entry: Invocation; result: InvokeResult }>;

/** The request id is chosen before the call, so the lines the handler writes while it runs land on the replay. */
export function replayer(inner: Invoker, history: InvocationHistory): Replay {
  return async (request) => {
    const requestId = request.requestId ?? randomUUID();
    const entry = history.start({ functionName: request.functionName, records: request.records, source: request.source, requestId, replay: true });
    let result: InvokeResult;
    try {
      result = await inner.invoke({ ...request, requestId });
    } catch (e) {
      history.end(entry, { ok: false, durationMs: Date.now() - entry.startedAt, error: thrownError(e) });
      throw e;
    }
    history.end(entry, result);
    return { entry, result };
  };
}
