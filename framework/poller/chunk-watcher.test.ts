/** ChunkInvoker tells its watcher (the console) of each invocation: the same request at start and end, with the poller's reading of the answer. */
import { describe, expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { Invoker, InvokeRequest, InvokeResult } from '../invoke/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import { ChunkInvoker } from './chunk-invoker.ts';
import type { ChunkEnded, ChunkWatcher, WatchedRequest } from './chunk-watcher.ts';

const trigger = { functionName: 'f', topic: 't', timeoutMs: 1_000, failure: { reportBatchItemFailures: true } } as unknown as TriggerSpec;
const records: KafkaRecord[] = [5, 6].map((offset) => ({ topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] }));
const batch = { topic: 't', partition: 0, fetchedAt: 0, heartbeat: async () => {} };

function watched(answer: (r: InvokeRequest) => Promise<InvokeResult>) {
  const seen: Array<['started', WatchedRequest] | ['ended', WatchedRequest, ChunkEnded, InvokeResult]> = [];
  const watcher: ChunkWatcher = { started: (_c, r) => void seen.push(['started', r]), ended: (r, c, result) => void seen.push(['ended', r, c, result]) };
  const inner: Invoker = { overheadMs: 0, prepare: async () => {}, close: async () => {}, invoke: answer };
  const invoker = new ChunkInvoker(trigger, inner, new Instrumentation(), createLogger('test', { level: 'error' }), 3_000, { bootstrapServers: 'b:9092' }, watcher);
  return { seen, invoke: () => invoker.invoke(batch, { records, attempts: 1, bytes: 10 }, false) };
}

describe('a watched ChunkInvoker', () => {
  it('invokes with a request id of its own, and tells the watcher the same request at the start and at the end, with how the poller read the answer', async () => {
    let invokedWith: string | undefined;
    const { seen, invoke } = watched(async (r) => ((invokedWith = r.requestId), { ok: true, payload: { batchItemFailures: [{ itemIdentifier: { partition: 't-0', offset: 6 } }] }, durationMs: 2, requestId: 'lambdas-own' }));
    await invoke();
    expect(invokedWith).toMatch(/^[0-9a-f-]{36}$/);
    const [[s, started], [e, ended, chunk, result]] = seen as [['started', WatchedRequest], ['ended', WatchedRequest, ChunkEnded, InvokeResult]];
    expect([s, e]).toEqual(['started', 'ended']);
    expect(ended).toBe(started);
    expect(started).toMatchObject({ requestId: invokedWith, attempt: 2, records });
    expect(chunk).toMatchObject({ ok: true, reportedFailedFrom: 6, requestId: 'lambdas-own', attempt: 2, firstOffset: 5 });
    expect(result).toMatchObject({ ok: true, requestId: 'lambdas-own' });
  });

  it('tells the watcher of an invoker that threw, as a failure, and throws on', async () => {
    const { seen, invoke } = watched(async () => {
      throw new TypeError('no socket');
    });
    await expect(invoke()).rejects.toThrow('no socket');
    expect(seen.map((x) => x[0])).toEqual(['started', 'ended']);
    expect(seen[1]![2]).toMatchObject({ ok: false, error: 'no socket' });
    expect(seen[1]![3]).toMatchObject({ ok: false, error: { name: 'TypeError', message: 'no socket' } });
  });
});
