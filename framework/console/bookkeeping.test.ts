/**
 * What the console does per invocation with no page open, wired as service-runner.ts wires it
 * (startConsole): it keeps what a page shows later, and touches no hash table per invocation but
 * its list of invocations holding lines. A Map or Set written and emptied on every invocation (the
 * running ones by request id, the chunks in flight, those past the events' rate) churned their
 * storage thousands of times a second at a firehose (bench/console-profile.ts).
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import type { KafkaRecord } from '../event/record.ts';
import type { Invoker, InvokeResult } from '../invoke/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { HealthTracker } from '../observe/health.ts';
import { createLogger } from '../observe/logger.ts';
import { ProgressTracker } from '../observe/progress.ts';
import { InvocationHistory } from './history.ts';
import { startConsole } from './index.ts';

const spec = {
  functionName: 'f', topic: 't', consumerGroupId: 'g', path: 'functions.f.events[0].sluice', timeoutMs: 10_000, maxPollIntervalMs: 120_000,
  batchSize: 10, parallelizationFactor: 1, engine: 'kafkajs', failure: {},
} as unknown as TriggerSpec;
const source = { bootstrapServers: 'b:9092' };
const records = (from: number): KafkaRecord[] =>
  Array.from({ length: 10 }, (_, i) => ({ topic: 't', partition: from % 4, offset: from + i, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] }));

/** Map.set/delete, Set.add/delete and WeakSet.add calls while `run` runs. */
async function hashWrites(run: () => Promise<void>): Promise<number> {
  const spies = [vi.spyOn(Map.prototype, 'set'), vi.spyOn(Map.prototype, 'delete'), vi.spyOn(Set.prototype, 'add'), vi.spyOn(Set.prototype, 'delete'), vi.spyOn(WeakSet.prototype, 'add')];
  try {
    await run();
    return spies.reduce((n, s) => n + s.mock.calls.length, 0);
  } finally {
    for (const s of spies) s.mockRestore();
  }
}

afterEach(() => vi.restoreAllMocks());

describe('the console with no page open', () => {
  it('writes two hash-table entries per invocation (in and out of the list of those holding lines), and still shows each one', async () => {
    let now = 1_000_000;
    const clock = () => now;
    const events = new Instrumentation();
    const history = new InvocationHistory({}, clock);
    const inner: Invoker = {
      overheadMs: 0, prepare: async () => {}, close: async () => {},
      invoke: async (r): Promise<InvokeResult> => {
        history.log(r.requestId, 'info', `invocation at ${r.records[0]!.offset}`); // the local invoker's log tap
        return { ok: true, payload: null, durationMs: 1, requestId: r.requestId! };
      },
    };
    const run = startConsole({
      settings: { mode: 'read-write', history, service: 's', stage: 'dev' }, triggers: [spec], events, health: new HealthTracker([spec], events, clock),
      progress: new ProgressTracker([spec], events, clock), invoker: inner, clusterOf: () => ({ brokers: ['b:9092'], security: {} }), logger: createLogger('test', { level: 'error' }),
    });
    // The poller's part (chunk-invoker.ts): a chunk's start, the invocation, its end.
    const chunk = async (i: number) => {
      const r = records(i * 10);
      const base = { functionName: 'f', topic: 't', partition: r[0]!.partition, count: 10, firstOffset: r[0]!.offset, lastOffset: r[9]!.offset, attempt: 1, bytes: 100, fetchedAt: now };
      events.emit('poller.chunk_start', base);
      const result = await run.invoker.invoke({ functionName: 'f', records: r, source, timeoutMs: 10_000, attempt: 1 });
      events.emit('poller.chunk_end', { ...base, ok: result.ok, durationMs: result.durationMs, requestId: result.requestId });
      now += 1; // a firehose: 1,000 invocations a second, past the 10 a second whose records are kept
    };
    for (let i = 0; i < 300; i++) await chunk(i); // the ring full: each invocation from here pushes one out
    const writes = await hashWrites(async () => {
      for (let i = 300; i < 1_300; i++) await chunk(i);
    });
    // Two per invocation (into the list of those holding lines, out when it leaves the ring); two per
    // invocation whose records are kept (the first 10 a second) and one a second (that count), over
    // the second and a bit the 1,000 span. Before: eight per invocation.
    expect(writes).toBeLessThanOrEqual(2 * 1_000 + 2 * (2 * 10 + 1));
    const newest = history.list({ limit: 1 })[0]!;
    expect(newest).toMatchObject({ firstOffset: 12_990, outcome: 'ok', attempt: 1 });
    expect(newest.logs.map((l) => l.text)).toEqual(['invocation at 12990']);
    expect(history.usage().entries).toBe(200);
    await run.close();
  });
});
