/**
 * A Sluice poller as its own process (so its RSS is its own, and several can join one group):
 * `node --import tsx bench/lib/poller-process.ts`, forked by bench/lib/child.ts with its
 * options in BENCH_POLLER (JSON). Reports over IPC: ready, joins, rebalances, progress
 * (records and chunks done, memory) every 250 ms, and on request the latency samples
 * (per record: its timestamp, and handler start − timestamp) it collected, and on 'mark' its records
 * done and CPU used so far. 'stop' stops it cleanly.
 */
import { PerformanceObserver } from 'node:perf_hooks';
import type { InvokeRequest, InvokeResult } from '../../framework/invoke/types.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { nowMs, startSluice, type SluiceOptions } from './sluice.ts';

export interface PollerProcessOptions extends Omit<SluiceOptions, 'observe'> {
  /** Collect per-record latency from the handler's start stamp (needs BENCH_STAMP=1 in env). */
  latency?: boolean;
  /** Report every invocation (partition, offsets, start, end) as it returns. */
  timeline?: boolean;
}

/** One invocation, as the poller saw it: `start` when it called the invoker, `end` when it returned (epoch ms). */
export interface InvocationSpan {
  partition: number;
  first: number;
  last: number;
  start: number;
  end: number;
  ok: boolean;
}

export type FromPoller =
  /** `consoleUrl`: with `console`, where its page is served. */
  | { type: 'ready'; at: number; consoleUrl?: string }
  | { type: 'join'; at: number; memberId: string; assignment: Record<string, number[]> }
  | { type: 'rebalance'; at: number }
  | { type: 'progress'; at: number; records: number; chunks: number; heapUsed: number; external: number; arrayBuffers: number }
  /** Per record: [its timestamp, handler start − timestamp], both ms. */
  | { type: 'samples'; latency: Array<[number, number]> }
  | ({ type: 'invocation' } & InvocationSpan)
  /** The answer to 'mark': records done and the CPU the whole process (every thread) has used, both so far. */
  | { type: 'mark'; records: number; cpuMicros: number; gcMs: number }
  | { type: 'stopped' };

export type ToPoller = { type: 'samples' } | { type: 'mark' } | { type: 'stop' };

const send = (m: FromPoller): void => void process.send?.(m);

async function main(): Promise<void> {
  const o = JSON.parse(process.env.BENCH_POLLER ?? '{}') as PollerProcessOptions;
  const latency: Array<[number, number]> = [];
  let records = 0;
  let chunks = 0;
  // Subscribed before the start: the first join happens inside it.
  const events = new Instrumentation();
  events.on('group.join', (e) => send({ type: 'join', at: Date.now(), memberId: e.memberId, assignment: e.assignment }));
  events.on('group.rebalancing', () => send({ type: 'rebalance', at: Date.now() }));
  events.on('poller.chunk_end', (e) => {
    if (!e.ok) return;
    records += e.count;
    chunks++;
  });
  const observe = (request: InvokeRequest, result: InvokeResult, invokedAt: number): void => {
    const [head, tail] = [request.records[0], request.records.at(-1)];
    if (o.timeline && head && tail) send({ type: 'invocation', partition: head.partition, first: head.offset, last: tail.offset, start: invokedAt, end: nowMs(), ok: result.ok });
    if (!o.latency) return;
    const start = result.ok ? (result.payload as { start?: number } | null)?.start : undefined;
    if (start === undefined) return;
    for (const r of request.records) latency.push([r.timestamp, start - r.timestamp]);
  };
  const report = (): void => {
    const m = process.memoryUsage();
    send({ type: 'progress', at: Date.now(), records, chunks, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers });
  };
  const timer = setInterval(report, 250);
  // Time in garbage collection on this thread so far (what a cost is made of, the console scenario's pairs).
  let gcMs = 0;
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcMs += e.duration;
  }).observe({ entryTypes: ['gc'] });
  const sluice = await startSluice({ ...o, ...(o.latency || o.timeline ? { observe } : {}) }, events);
  process.on('message', (m: ToPoller) => {
    if (m.type === 'samples') send({ type: 'samples', latency: latency.splice(0) });
    if (m.type === 'mark') {
      const cpu = process.cpuUsage();
      send({ type: 'mark', records, cpuMicros: cpu.user + cpu.system, gcMs });
    }
    if (m.type !== 'stop') return;
    clearInterval(timer);
    report();
    sluice.stop().then(
      () => {
        send({ type: 'stopped' });
        process.disconnect?.();
      },
      (e: unknown) => {
        process.stderr.write(`bench poller: stop failed: ${String(e)}\n`);
        process.exit(1);
      },
    );
  });
  // The bench went away without stopping us: leave the group rather than linger.
  process.on('disconnect', () => void sluice.stop().finally(() => process.exit(0)));
  send({ type: 'ready', at: Date.now(), ...(sluice.consoleUrl ? { consoleUrl: sluice.consoleUrl } : {}) });
}

main().catch((e: unknown) => {
  process.stderr.write(`bench poller: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
