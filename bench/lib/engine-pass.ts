/**
 * One pass of the engines scenario in a process of its own (so its RSS and CPU are its own):
 * forked by bench/scenarios/engines.ts with its options in BENCH_ENGINE_PASS (JSON). Drains the
 * topic with a fresh group on one side (Sluice or the bare client, on kafkajs or librdkafka) and
 * reports over IPC the time from the first records to the last, the process's CPU over that time
 * (every thread: the poller, the handler workers, librdkafka's own) and the peak RSS.
 */
import { Instrumentation } from '../../framework/observe/events.ts';
import { startBare } from './bare.ts';
import { startBareRdkafka } from './bare-rdkafka.ts';
import { kafkaClient } from './kafka.ts';
import { startSluice } from './sluice.ts';

export type EngineSide = 'bare kafkajs' | 'Sluice on kafkajs' | 'bare librdkafka' | 'Sluice on librdkafka';

export interface EnginePassOptions {
  side: EngineSide;
  brokers: string[];
  topic: string;
  groupId: string;
  records: number;
  concurrency: number;
}

export interface EnginePassResult {
  ms: number;
  cpuMs: number;
  rssPeakBytes: number;
}

async function main(): Promise<void> {
  const o = JSON.parse(process.env.BENCH_ENGINE_PASS ?? '{}') as EnginePassOptions;
  let rssPeak = process.memoryUsage.rss();
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 100);
  let first = 0;
  let cpuAtFirst = process.cpuUsage();
  let done = 0;
  let finished!: () => void;
  const all = new Promise<void>((resolve) => (finished = resolve));
  const begin = () => {
    if (first) return;
    first = performance.now();
    cpuAtFirst = process.cpuUsage();
  };
  const count = (n: number) => {
    done += n;
    if (done >= o.records) finished();
  };
  const running = await startSide(o, begin, count);
  await all;
  const ms = performance.now() - first;
  const cpu = process.cpuUsage(cpuAtFirst);
  clearInterval(sampler);
  rssPeak = Math.max(rssPeak, process.memoryUsage.rss());
  await running.stop();
  const result: EnginePassResult = { ms, cpuMs: (cpu.user + cpu.system) / 1000, rssPeakBytes: rssPeak };
  process.send?.(result, () => process.exit(0));
}

function startSide(o: EnginePassOptions, begin: () => void, count: (n: number) => void): Promise<{ stop(): Promise<void> }> {
  if (o.side === 'bare kafkajs') return startBare(kafkaClient(o.brokers), { topic: o.topic, groupId: o.groupId, concurrency: o.concurrency, maximumBatchingWindowMs: 0, onBatchStart: begin, onRecords: count });
  if (o.side === 'bare librdkafka') return startBareRdkafka({ brokers: o.brokers, topic: o.topic, groupId: o.groupId, concurrency: o.concurrency, onFirst: begin, onRecords: count });
  const events = new Instrumentation();
  events.on('poller.batch_received', begin);
  events.on('poller.chunk_end', (e) => e.ok && count(e.count));
  const engine = o.side === 'Sluice on kafkajs' ? 'kafkajs' : 'librdkafka';
  return startSluice({ name: `bench-engines-${engine}`, brokers: o.brokers, topic: o.topic, groupId: o.groupId, batchSize: 1000, maximumBatchingWindowMs: 0, concurrency: o.concurrency, engine }, events);
}

main().catch((e: unknown) => {
  process.stderr.write(`bench engine pass: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
