/**
 * What the console does per invocation with no page open, wired as service-runner.ts wires it
 * (startConsole): it lists the first 10 invocations a second of a function and every one that
 * failed, and for the rest, which no page would see, touches no hash table nor ring. A Map or Set
 * written and emptied on every invocation churned their storage thousands of times a second at a
 * firehose (bench/console-profile.ts); listing every success cost the poller a ring shift, a copy of
 * five keys and its answer's JSON each (bench/console-bookkeeping.ts).
 */
import { afterEach, describe, expect, it, vi, type MockInstance } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { Invoker, InvokeResult } from '../invoke/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { HealthTracker } from '../observe/health.ts';
import { createLogger } from '../observe/logger.ts';
import { ProgressTracker } from '../observe/progress.ts';
import { ChunkInvoker } from '../poller/chunk-invoker.ts';
import { eventOf, InvocationHistory } from './history.ts';
import { startConsole } from './index.ts';

const spec = {
  functionName: 'f', topic: 't', consumerGroupId: 'g', path: 'functions.f.events[0].sluice', timeoutMs: 10_000, maxPollIntervalMs: 120_000,
  batchSize: 10, parallelizationFactor: 1, engine: 'kafkajs', failure: {},
} as unknown as TriggerSpec;
const source = { bootstrapServers: 'b:9092' };
const records = (from: number): KafkaRecord[] =>
  Array.from({ length: 10 }, (_, i) => ({ topic: 't', partition: from % 4, offset: from + i, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] }));

/** Map.set/delete, Set.add/delete and WeakSet.add calls made by Sluice's own code (not vitest's) while `run` runs. */
async function hashWrites(run: () => Promise<void>): Promise<number> {
  let writes = 0;
  const spy = <T extends object>(proto: T, name: keyof T & string) => {
    const real = proto[name] as (...a: unknown[]) => unknown;
    const s = vi.spyOn(proto, name as never) as unknown as MockInstance;
    s.mockImplementation(function (this: unknown, ...a: unknown[]) {
      // The first frame of the caller that is not the spy's own.
      const caller = new Error().stack!.split('\n').slice(2).find((l) => !l.includes('node_modules') && !l.includes('bookkeeping.test.ts'));
      if (caller?.includes('/framework/')) writes++;
      return real.apply(this, a);
    });
    return s;
  };
  const spies = [spy(Map.prototype, 'set'), spy(Map.prototype, 'delete'), spy(Set.prototype, 'add'), spy(Set.prototype, 'delete'), spy(WeakSet.prototype, 'add')];
  try {
    await run();
    return writes;
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('the console with no page open', () => {
  it('lists the first 10 invocations a second and every failure, with their lines, and writes no hash-table entry for the others', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const events = new Instrumentation();
    const history = new InvocationHistory({}, clock);
    const inner: Invoker = {
      overheadMs: 0, prepare: async () => {}, close: async () => {},
      invoke: async (r): Promise<InvokeResult> => {
        const offset = r.records[0]!.offset;
        history.log(r.requestId, 'info', `invocation at ${offset}`); // the local invoker's log tap
        if (offset === 7_000) return { ok: false, error: { kind: 'error', name: 'Error', message: 'boom' }, durationMs: 1, requestId: r.requestId! };
        return { ok: true, payload: null, durationMs: 1, requestId: r.requestId! };
      },
    };
    const run = startConsole({
      settings: { mode: 'read-write', history, service: 's', stage: 'dev' }, triggers: [spec], events, health: new HealthTracker([spec], events, clock),
      progress: new ProgressTracker([spec], events, clock), invoker: inner, clusterOf: () => ({ brokers: ['b:9092'], security: {} }), logger: createLogger('test', { level: 'error' }),
    });
    // The poller's part: its ChunkInvoker, with the console's watcher as service-runner.ts hands it on.
    const invoker = new ChunkInvoker(spec, inner, events, createLogger('test', { level: 'error' }), 3_000, source, run.watcher);
    const chunk = async (i: number) => {
      const r = records(i * 10);
      await invoker.invoke({ topic: 't', partition: r[0]!.partition, fetchedAt: now, heartbeat: async () => {} }, { records: r, attempts: 0, bytes: 100 }, false);
      now += 1; // a firehose: 1,000 invocations a second, past the 10 a second listed with no page open
    };
    for (let i = 0; i < 300; i++) await chunk(i); // all in the first second: its 10 listed
    const writes = await hashWrites(async () => {
      for (let i = 300; i < 1_300; i++) await chunk(i); // the rest of that second, and 300 of the next
    });
    // Listed: the first 10 of the next second and the failure (at 7,000), each into the list of those
    // holding lines and of those holding records, and its records packed (a map of their topics); and
    // one a second (its count). Before: two per invocation.
    expect(writes).toBeLessThanOrEqual(3 * 11 + 1);
    const listed = history.list();
    expect(listed.map((e) => e.firstOffset)).toEqual([
      ...Array.from({ length: 10 }, (_, i) => 10_090 - 10 * i), 7_000, ...Array.from({ length: 10 }, (_, i) => 90 - 10 * i),
    ]);
    const failed = listed[10]!;
    expect(failed).toMatchObject({ outcome: 'failed', error: 'Error: boom' });
    expect(failed.logs.map((l) => l.text)).toEqual(['invocation at 7000']);
    expect(eventOf(failed)?.map((r) => r.offset)).toEqual(records(7_000).map((r) => r.offset));
    expect(listed[0]!.logs.map((l) => l.text)).toEqual(['invocation at 10090']);
    expect(history.unlistedCounts()).toEqual({ f: 1_300 - 21 });
    await run.close();
  });
});
