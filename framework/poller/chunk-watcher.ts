/**
 * What watches each chunk the poller invokes, besides the instrumentation events: the console
 * (DESIGN §2.9), which keeps what no event carries (the records, the request id the handler's
 * lines name, the handler's answer) and needs the poller's reading of that answer with it. Called
 * by ChunkInvoker just before the invocation and just after the poller has read its answer, on the
 * poller's own path: it must neither throw nor wait. One direct call each, where the console had
 * wrapped the invoker and listened to both chunk events, matching them up by request id: four hooks
 * per invocation for what two calls carry whole.
 */
import type { InvokeRequest, InvokeResult } from '../invoke/types.ts';
import type { SluiceEvents } from '../observe/events.ts';

export type ChunkStarted = SluiceEvents['poller.chunk_start'];
export type ChunkEnded = SluiceEvents['poller.chunk_end'];
/** A request with the request id the handler will run with (its lines name it). */
export type WatchedRequest = InvokeRequest & { requestId: string };

export interface ChunkWatcher {
  started(chunk: ChunkStarted, request: WatchedRequest): void;
  /** `request` is the one `started` got; `chunk` is the poller's chunk_end event, its reading of the answer included. */
  ended(request: WatchedRequest, chunk: ChunkEnded, result: InvokeResult): void;
}
