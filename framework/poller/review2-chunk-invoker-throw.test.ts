/** Review (6640af9): an invoker that rejects with something not an object (null) is rethrown as it was, and the watcher is told the end. */
import { expect, it } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { Invoker } from '../invoke/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import { ChunkInvoker } from './chunk-invoker.ts';
import type { ChunkWatcher } from './chunk-watcher.ts';

const trigger = { functionName: 'f', topic: 't', timeoutMs: 1_000, failure: {} } as unknown as TriggerSpec;
const records: KafkaRecord[] = [{ topic: 't', partition: 0, offset: 5, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] }];
const batch = { topic: 't', partition: 0, fetchedAt: 0, heartbeat: async () => {} };
const inner: Invoker = { overheadMs: 0, prepare: async () => {}, close: async () => {}, invoke: () => Promise.reject(null) };

it.each([false, true])('rethrows the rejection itself (watched: %s), and a watcher sees the invocation end', async (watch) => {
  const seen: string[] = [];
  const watcher: ChunkWatcher = { started: () => void seen.push('started'), ended: (_r, c) => void seen.push(`ended ${c.ok} ${c.error}`) };
  const invoker = new ChunkInvoker(trigger, inner, new Instrumentation(), createLogger('test', { level: 'error' }), 3_000, { bootstrapServers: 'b:9092' }, watch ? watcher : undefined);
  await expect(invoker.invoke(batch, { records, attempts: 0, bytes: 1 }, false)).rejects.toBe(null);
  expect(seen).toEqual(watch ? ['started', 'ended false null'] : []);
});
