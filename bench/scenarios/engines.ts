/**
 * 9. Engines: Sluice on each engine against a bare client of the same engine, on the same
 * preloaded topic (1 KB records, 6 partitions, the throughput scenario's when it ran first): a no-op
 * handler through the local invoker (batchSize 1000, concurrency 4) and a bare consumer that does
 * nothing. Each pass runs in a process of its own with a fresh group (bench/lib/engine-pass.ts):
 * records/s from the first records to the last, CPU per record of the whole process, and its
 * peak RSS. Rounds of one pass per side repeat until each side has run 20 s (2 s in quick mode).
 */
import { fork } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { EnginePassOptions, EnginePassResult, EngineSide } from '../lib/engine-pass.ts';
import { createTopic, preload, uniqueName } from '../lib/kafka.ts';
import { perSecond, round } from '../lib/stats.ts';
import type { BenchContext, Figure, Scenario } from '../lib/types.ts';

const ENTRY = fileURLToPath(new URL('../lib/engine-pass.ts', import.meta.url));
const PARTITIONS = 6;
const CONCURRENCY = 4;
const SIDES: EngineSide[] = ['bare kafkajs', 'Sluice on kafkajs', 'bare librdkafka', 'Sluice on librdkafka'];
const MB = 1024 * 1024;

export const engines: Scenario = async (ctx) => {
  const minSideMs = ctx.quick ? 2_000 : 20_000;
  const backlog = ctx.backlog ?? (await ownBacklog(ctx, ctx.quick ? 100_000 : 1_000_000));
  const passes = new Map<EngineSide, EnginePassResult[]>(SIDES.map((s) => [s, []]));
  const spent = (side: EngineSide) => passes.get(side)!.reduce((a, p) => a + p.ms, 0);
  for (let r = 0; r < 8 && SIDES.some((s) => spent(s) < minSideMs); r++) {
    for (const side of SIDES) {
      const pass = await runPass(ctx, { side, brokers: ctx.brokers, topic: backlog.topic, groupId: uniqueName('engines-group'), records: backlog.records, concurrency: CONCURRENCY });
      passes.get(side)!.push(pass);
      ctx.log(`${side} pass ${passes.get(side)!.length}: ${Math.round(perSecond(backlog.records, pass.ms))} records/s, ${((pass.cpuMs * 1000) / backlog.records).toFixed(1)} µs CPU/record, RSS peak ${Math.round(pass.rssPeakBytes / MB)} MB`);
    }
  }
  const rate = (side: EngineSide) => perSecond(backlog.records * passes.get(side)!.length, spent(side));
  const cpuUs = (side: EngineSide) => (passes.get(side)!.reduce((a, p) => a + p.cpuMs, 0) * 1000) / (backlog.records * passes.get(side)!.length);
  const rss = (side: EngineSide) => Math.max(...passes.get(side)!.map((p) => p.rssPeakBytes)) / MB;
  const figures: Figure[] = SIDES.flatMap((side) => [
    { scenario: 'engines', figure: `${side}: records/s; CPU per record; RSS peak`, value: `${Math.round(rate(side))}; ${cpuUs(side).toFixed(1)} µs; ${Math.round(rss(side))} MB` },
  ]);
  for (const engine of ['kafkajs', 'librdkafka'] as const) {
    const [bare, sluice] = [`bare ${engine}`, `Sluice on ${engine}`] as EngineSide[];
    const ratio = rate(sluice!) / rate(bare!);
    figures.push({ scenario: 'engines', figure: `Sluice / bare ${engine}: records/s (CPU per record)`, value: `${ratio.toFixed(2)} (${(cpuUs(sluice!) / cpuUs(bare!)).toFixed(1)}×)`, target: '≥ 0.80', met: ratio >= 0.8 });
  }
  figures.push({ scenario: 'engines', figure: 'Sluice on librdkafka / Sluice on kafkajs: records/s', value: (rate('Sluice on librdkafka') / rate('Sluice on kafkajs')).toFixed(2) });
  return {
    figures,
    data: {
      records: backlog.records, partitions: PARTITIONS, valueBytes: 1024, batchSize: 1000, concurrency: CONCURRENCY,
      sides: Object.fromEntries(SIDES.map((side) => [side, { recordsPerSecond: Math.round(rate(side)), cpuMicrosPerRecord: round(cpuUs(side), 2), rssPeakMB: Math.round(rss(side)), passesMs: passes.get(side)!.map((p) => Math.round(p.ms)) }])),
    },
  };
};

async function ownBacklog(ctx: BenchContext, records: number): Promise<{ topic: string; records: number }> {
  const topic = uniqueName('engines');
  await createTopic(ctx.kafka, topic, PARTITIONS);
  await preload(ctx.kafka, topic, { records, partitions: PARTITIONS, valueBytes: 1024 });
  return { topic, records };
}

function runPass(ctx: BenchContext, o: EnginePassOptions): Promise<EnginePassResult> {
  const child = fork(ENTRY, [], { execArgv: ['--import', 'tsx'], env: { ...process.env, BENCH_ENGINE_PASS: JSON.stringify(o) }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${o.side} did not drain ${o.records} records in 180 s`));
    }, 180_000);
    child.once('message', (m: EnginePassResult) => {
      clearTimeout(timer);
      resolve(m);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${o.side} pass exited with ${code} before it reported`));
    });
  });
}
