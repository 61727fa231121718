/**
 * The console's own work per invocation with no page open, in this process, without a broker: the
 * poller's side of an invocation (its ChunkInvoker: the chunk events, the invoker, the console's
 * watcher; the health and progress trackers listening as in a running service), timed with the
 * console wired as service-runner.ts wires it and without, in alternating rounds (the first of each
 * warms the JIT up, and counts for none). A batch is 100 records of 256 bytes, each invocation
 * writes a line: the console scenario's firehose.
 */
import { randomUUID } from 'node:crypto';
import type { TriggerSpec } from '../../framework/config/types.ts';
import { InvocationHistory } from '../../framework/console/history.ts';
import { startConsole } from '../../framework/console/index.ts';
import type { KafkaRecord } from '../../framework/event/record.ts';
import type { Invoker, InvokeResult } from '../../framework/invoke/types.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { HealthTracker } from '../../framework/observe/health.ts';
import { createLogger } from '../../framework/observe/logger.ts';
import { ProgressTracker } from '../../framework/observe/progress.ts';
import { ChunkInvoker } from '../../framework/poller/chunk-invoker.ts';
import { median } from './stats.ts';

const ROUNDS = 7;
const logger = createLogger('bench', { level: 'error' });
const spec = {
  functionName: 'f', topic: 't', consumerGroupId: 'g', path: 'functions.f.events[0].sluice', timeoutMs: 10_000, maxPollIntervalMs: 120_000,
  batchSize: 100, parallelizationFactor: 1, engine: 'kafkajs', failure: {},
} as unknown as TriggerSpec;
const source = { bootstrapServers: 'b:9092' };
const value = Buffer.alloc(256, 'v');
const batch = (from: number): KafkaRecord[] =>
  Array.from({ length: 100 }, (_, i) => ({ topic: 't', partition: from % 6, offset: from + i, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from(`key-${from + i}`), value, headers: [] }));
const batches = Array.from({ length: 64 }, (_, i) => batch(i * 100));

/** µs of CPU per invocation without the console and with it (no page open), the median of the rounds after the first. */
export async function consoleBookkeeping(invocations: number): Promise<{ without: number; with: number }> {
  const taken = { without: [] as number[], with: [] as number[] };
  for (let i = 0; i < ROUNDS; i++) {
    taken.without.push(await round(false, invocations));
    taken.with.push(await round(true, invocations));
  }
  return { without: median(taken.without.slice(1)), with: median(taken.with.slice(1)) };
}

async function round(withConsole: boolean, invocations: number): Promise<number> {
  const events = new Instrumentation();
  const health = new HealthTracker([spec], events);
  const progress = new ProgressTracker([spec], events);
  const history = new InvocationHistory();
  const tap = withConsole ? (id: string | undefined, text: string) => history.log(id, 'info', text) : () => undefined;
  const inner: Invoker = {
    overheadMs: 0, prepare: async () => {}, close: async () => {},
    invoke: async (r): Promise<InvokeResult> => {
      // The local invoker's part: a request id of its own unless the request has one (the console's).
      const requestId = r.requestId ?? randomUUID();
      tap(requestId, `invocation ${r.records[0]!.offset}`);
      return { ok: true, payload: { start: 1 }, durationMs: 1, requestId };
    },
  };
  const run = withConsole
    ? startConsole({ settings: { mode: 'read-write', history, service: 's', stage: 'dev' }, triggers: [spec], events, health, progress, invoker: inner, clusterOf: () => ({ brokers: ['b:9092'], security: {} }), logger })
    : undefined;
  // The poller's own code for an invocation (its events, the console's watcher), heartbeats aside.
  const chunks = new ChunkInvoker(spec, inner, events, logger, 3_000, source, run?.watcher);
  const cpu = process.cpuUsage();
  for (let i = 0; i < invocations; i++) {
    const records = batches[i % batches.length]!;
    await chunks.invoke({ topic: 't', partition: records[0]!.partition, fetchedAt: 0, heartbeat: async () => {} }, { records, attempts: 0, bytes: 25_600 }, false);
  }
  const used = process.cpuUsage(cpu);
  await run?.close();
  return (used.user + used.system) / invocations;
}
