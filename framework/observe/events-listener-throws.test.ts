/**
 * A listener that throws never reaches the poller: before, Instrumentation.emit was EventEmitter's,
 * so a throwing poller.chunk_end listener made a chunk that succeeded throw out of its invoke (its
 * records run again) and kept the listeners after it, and the console's watcher, from being told.
 */
import { afterEach, expect, it, vi } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { Invoker } from '../invoke/types.ts';
import { ChunkInvoker } from '../poller/chunk-invoker.ts';
import type { ChunkWatcher } from '../poller/chunk-watcher.ts';
import { Instrumentation } from './events.ts';
import { createLogger } from './logger.ts';

afterEach(() => vi.restoreAllMocks());

it('tells every listener and reports a throwing one once', () => {
  const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  const events = new Instrumentation();
  const seen: number[] = [];
  events.on('poller.heartbeat', () => {
    throw new Error('a bug in a view');
  });
  events.on('poller.heartbeat', () => void seen.push(1));
  events.emit('poller.heartbeat', { groupId: 'g', ok: true });
  events.emit('poller.heartbeat', { groupId: 'g', ok: true });
  expect(seen).toEqual([1, 1]);
  expect(warned).toHaveBeenCalledTimes(1);
  expect(String(warned.mock.calls[0]![0])).toMatch(/a listener of poller\.heartbeat threw .*a bug in a view/s);
});

it('tells every listener whatever a listener threw, a value with no string form too', () => {
  const warned = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  const revoked = Proxy.revocable({}, {});
  revoked.revoke();
  const events = new Instrumentation();
  const seen: string[] = [];
  // String() of an object without a prototype throws; so does reading .stack of a revoked Proxy.
  events.on('poller.heartbeat', () => {
    throw Object.create(null);
  });
  events.on('poller.commit_refused', () => {
    throw revoked.proxy;
  });
  events.on('poller.heartbeat', () => void seen.push('heartbeat'));
  events.on('poller.commit_refused', () => void seen.push('commit_refused'));
  events.emit('poller.heartbeat', { groupId: 'g', ok: true });
  events.emit('poller.commit_refused', { functionName: 'f', topic: 't', partition: 0, offset: 1, reason: 'refused' });
  expect(seen).toEqual(['heartbeat', 'commit_refused']);
  expect(warned.mock.calls.map(([text]) => String(text))).toEqual([
    'a listener of poller.heartbeat threw (reported once; the poller went on): a value with no string form',
    'a listener of poller.commit_refused threw (reported once; the poller went on): a value with no string form',
  ]);
});

it("a chunk that succeeded returns its result, and the watcher is told, whatever a chunk_end listener threw", async () => {
  vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
  const trigger = { functionName: 'f', topic: 't', timeoutMs: 1_000, failure: {} } as unknown as TriggerSpec;
  const records: KafkaRecord[] = [{ topic: 't', partition: 0, offset: 5, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] }];
  const batch = { topic: 't', partition: 0, fetchedAt: 0, heartbeat: async () => {} };
  const invoker: Invoker = { overheadMs: 0, prepare: async () => {}, close: async () => {}, invoke: async () => ({ ok: true, payload: null, durationMs: 3, requestId: 'r' }) };
  const events = new Instrumentation();
  events.on('poller.chunk_end', () => {
    throw new Error('a bug in a view');
  });
  const ended: boolean[] = [];
  const watcher: ChunkWatcher = { started: () => undefined, ended: (_r, end) => void ended.push(end.ok) };
  const chunks = new ChunkInvoker(trigger, invoker, events, createLogger('test', { level: 'error' }), 3_000, { bootstrapServers: 'b:9092' }, watcher);
  await expect(chunks.invoke(batch, { records, attempts: 0, bytes: 1 }, false)).resolves.toMatchObject({ ok: true });
  expect(ended).toEqual([true]);
});
