/**
 * The console's own work per invocation with no page open, in this process, without a broker: the
 * poller's side of an invocation (its ChunkInvoker: the chunk events, the invoker, the console's
 * watcher; the health and progress trackers listening as in a running service), timed with the
 * console wired as service-runner.ts wires it and without, in alternating rounds (the first of each
 * warms the JIT up, and counts for none). A batch is 100 records of 256 bytes, each invocation
 * writes a line: the console scenario's firehose.
 */
import { randomUUID } from 'node:crypto';
import { InvocationHistory } from '../../framework/console/history.ts';
import type { KafkaRecord } from '../../framework/event/record.ts';
import type { Invoker, InvokeResult } from '../../framework/invoke/types.ts';
import { median } from './stats.ts';
import { benchTrigger, wiredConsole } from './wired-console.ts';

const ROUNDS = 7;
const spec = benchTrigger('t', 100);
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
  // The poller's own code for an invocation (its events, the console's watcher), heartbeats aside.
  const { chunks, console: run } = wiredConsole(spec, inner, withConsole ? history : undefined, 'b:9092');
  const cpu = process.cpuUsage();
  for (let i = 0; i < invocations; i++) {
    const records = batches[i % batches.length]!;
    await chunks.invoke({ topic: 't', partition: records[0]!.partition, fetchedAt: 0, heartbeat: async () => {} }, { records, attempts: 0, bytes: 25_600 }, false);
  }
  const used = process.cpuUsage(cpu);
  await run?.close();
  return (used.user + used.system) / invocations;
}
