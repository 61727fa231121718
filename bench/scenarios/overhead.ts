/**
 * 2. Overhead per invocation: from a chunk being ready (the poller's `poller.chunk_start`
 * event, emitted just before the event is built) to the handler starting (its first line
 * stamps the time), with batchSize 1 and 100, 1 KB records. Split in two: building the event
 * (chunk_start → the invoker called) and the hand-off to the worker (→ handler start). A
 * worker's first invocation (cold start: the worker is spawned on demand) is reported apart.
 */
import { Instrumentation } from '../../framework/observe/events.ts';
import { createTopic, deleteTopics, preload, uniqueName } from '../lib/kafka.ts';
import { nowMs, startSluice } from '../lib/sluice.ts';
import { perSecond, round, spread, waitUntil, type Spread } from '../lib/stats.ts';
import type { BenchContext, Figure, Scenario } from '../lib/types.ts';

const PARTITIONS = 6;

interface Measured {
  batchSize: number;
  total: Spread;
  build: Spread;
  handoff: Spread;
  cold: Spread;
  invocationsPerSecond: number;
}

export const overhead: Scenario = async (ctx) => {
  const runs = [
    await measure(ctx, 1, ctx.quick ? 1_500 : 6_000),
    await measure(ctx, 100, ctx.quick ? 30_000 : 150_000),
  ];
  const ms = (n: number) => `${n.toFixed(2)} ms`;
  const figures: Figure[] = runs.flatMap((r) => [
    { scenario: 'overhead', figure: `chunk ready → handler start, batchSize ${r.batchSize}, p50 / p99`, value: `${ms(r.total.p50)} / ${ms(r.total.p99)}` },
    { scenario: 'overhead', figure: `  of which building the event, batchSize ${r.batchSize}, p50 / p99`, value: `${ms(r.build.p50)} / ${ms(r.build.p99)}` },
    { scenario: 'overhead', figure: `  of which hand-off to the worker, batchSize ${r.batchSize}, p50 / p99`, value: `${ms(r.handoff.p50)} / ${ms(r.handoff.p99)}` },
  ]);
  const cold = runs.flatMap((r) => (r.cold.count ? [r.cold.p50] : []));
  if (cold.length) figures.push({ scenario: 'overhead', figure: 'cold start (a worker\'s first invocation), p50', value: ms(Math.max(...cold)) });
  figures.push({ scenario: 'overhead', figure: 'invocations/s with batchSize 1 (invoke + commit each, concurrency 4)', value: String(Math.round(runs[0]!.invocationsPerSecond)) });
  const rounded = (s: Spread) => ({ count: s.count, p50: round(s.p50, 3), p99: round(s.p99, 3), max: round(s.max, 3), mean: round(s.mean, 3) });
  return { figures, data: { runs: runs.map((r) => ({ ...r, total: rounded(r.total), build: rounded(r.build), handoff: rounded(r.handoff), cold: rounded(r.cold), invocationsPerSecond: Math.round(r.invocationsPerSecond) })) } };
};

async function measure(ctx: BenchContext, batchSize: number, records: number): Promise<Measured> {
  const topic = uniqueName(`overhead-${batchSize}`);
  await createTopic(ctx.kafka, topic, PARTITIONS);
  await preload(ctx.kafka, topic, { records, partitions: PARTITIONS, valueBytes: 1024 });

  const ready = new Map<string, number>();
  const total: number[] = [];
  const build: number[] = [];
  const handoff: number[] = [];
  const cold: number[] = [];
  let done = 0;
  let first = 0;
  let last = 0;
  const events = new Instrumentation();
  events.on('poller.chunk_start', (e) => {
    const at = nowMs();
    first ||= at;
    ready.set(`${e.partition}:${e.firstOffset}`, at);
  });
  events.on('poller.chunk_end', (e) => {
    done += e.count;
    last = nowMs();
  });
  const sluice = await startSluice({
    name: `bench-overhead-${batchSize}`, brokers: ctx.brokers, topic, groupId: uniqueName('overhead-group'), batchSize, maximumBatchingWindowMs: 0, concurrency: 4,
    env: { BENCH_STAMP: '1' },
    observe: (request, result, invokedAt) => {
      const stamp = result.ok ? (result.payload as { start: number; cold: boolean } | null) : null;
      const firstRecord = request.records[0];
      const chunkReady = firstRecord && ready.get(`${firstRecord.partition}:${firstRecord.offset}`);
      if (!stamp || !chunkReady) return;
      if (stamp.cold) return void cold.push(stamp.start - chunkReady);
      total.push(stamp.start - chunkReady);
      build.push(invokedAt - chunkReady);
      handoff.push(stamp.start - invokedAt);
    },
  }, events);
  try {
    await waitUntil(`batchSize ${batchSize}: all ${records} records invoked`, () => done >= records, 180_000);
  } finally {
    await sluice.stop();
    await deleteTopics(ctx.kafka, [topic]);
  }
  const invocations = total.length + cold.length;
  ctx.log(`batchSize ${batchSize}: ${invocations} invocations (${cold.length} cold), p50 ${spread(total).p50.toFixed(2)} ms`);
  return { batchSize, total: spread(total), build: spread(build), handoff: spread(handoff), cold: spread(cold), invocationsPerSecond: perSecond(invocations, last - first) };
}
