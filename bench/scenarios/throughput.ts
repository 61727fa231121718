/**
 * 1. Throughput: Sluice (no-op handler through the local invoker, batchSize 1000) against a
 * bare kafkajs eachBatch consumer that does nothing, and Sluice again with /metrics served and
 * scraped every second (the cost of metrics on), on the same preloaded topic (1 KB
 * records, 6 partitions). Each pass drains the whole topic with a fresh group; rounds of one
 * pass per side (so both see the same warm-up and page cache) repeat until each side has run
 * at least 20 s (2 s in quick mode). A pass is timed from the first batch the application
 * gets to the last record done, so joining the group is not counted. A fourth side, a bare
 * @platformatic/kafka consumer with the same fetch sizes (bench/lib/platformatic.ts), shows
 * what a client that fetches ahead would buy: the client's ceiling, not a Sluice figure.
 */
import type { Kafka } from 'kafkajs';
import { Instrumentation } from '../../framework/observe/events.ts';
import { startBare } from '../lib/bare.ts';
import { startPlatformatic } from '../lib/platformatic.ts';
import { createTopic, preload, uniqueName } from '../lib/kafka.ts';
import { startSluice } from '../lib/sluice.ts';
import { perSecond, round } from '../lib/stats.ts';
import type { BenchContext, Scenario } from '../lib/types.ts';

const PARTITIONS = 6;
const CONCURRENCY = 4;
type Side = 'bare' | 'sluice' | 'metrics' | 'platformatic';
const SIDES: Side[] = ['bare', 'sluice', 'metrics', 'platformatic'];

export const throughput: Scenario = async (ctx) => {
  const records = ctx.quick ? 100_000 : 1_000_000;
  const minSideMs = ctx.quick ? 2_000 : 20_000;
  const topic = uniqueName('throughput');
  await createTopic(ctx.kafka, topic, PARTITIONS);
  const loaded = await preload(ctx.kafka, topic, { records, partitions: PARTITIONS, valueBytes: 1024 });
  ctx.log(`preloaded ${records} records of 1 KB in ${(loaded.ms / 1000).toFixed(1)} s (${Math.round(loaded.perSecond)}/s)`);
  ctx.backlog = { topic, records, partitions: PARTITIONS };

  const passes: Record<Side, number[]> = { bare: [], sluice: [], metrics: [], platformatic: [] };
  const cpuMs: Record<Side, number> = { bare: 0, sluice: 0, metrics: 0, platformatic: 0 };
  /** Busy share of the main thread (the poller's, or the bare client's) over the passes: event-loop utilisation. */
  const busy: Record<Side, number[]> = { bare: [], sluice: [], metrics: [], platformatic: [] };
  const spent = (side: Side) => passes[side].reduce((a, b) => a + b, 0);
  for (let r = 0; r < 12 && SIDES.some((s) => spent(s) < minSideMs); r++) {
    for (const side of SIDES) {
      const { ms, cpu, utilization } = await drain(ctx, side, topic, records);
      passes[side].push(ms);
      cpuMs[side] += cpu;
      busy[side].push(utilization);
      ctx.log(`${side} pass ${passes[side].length}: ${records} records in ${(ms / 1000).toFixed(2)} s (${Math.round(perSecond(records, ms))}/s)`);
    }
  }
  const bare = perSecond(records * passes.bare.length, spent('bare'));
  const sluice = perSecond(records * passes.sluice.length, spent('sluice'));
  const withMetrics = perSecond(records * passes.metrics.length, spent('metrics'));
  const platformatic = perSecond(records * passes.platformatic.length, spent('platformatic'));
  const ratio = sluice / bare;
  const metricsCost = 1 - withMetrics / sluice;
  // CPU of the whole process (every thread: poller, handler workers) per record, during the passes.
  const cpuUs = (side: Side) => (cpuMs[side] * 1000) / (records * passes[side].length);
  // Weighted by each pass's length: the share of the side's whole drain time the thread was idle.
  const idle = (side: Side) => 1 - busy[side].reduce((a, u, i) => a + u * passes[side][i]!, 0) / Math.max(1, spent(side));
  return {
    figures: [
      { scenario: 'throughput', figure: 'bare kafkajs eachBatch no-op, records/s', value: String(Math.round(bare)) },
      { scenario: 'throughput', figure: 'Sluice no-op handler, batchSize 1000, records/s', value: String(Math.round(sluice)) },
      { scenario: 'throughput', figure: 'ratio Sluice / bare', value: ratio.toFixed(2), target: '≥ 0.80', met: ratio >= 0.8 },
      { scenario: 'throughput', figure: 'Sluice with /metrics served and scraped every second, records/s', value: String(Math.round(withMetrics)) },
      { scenario: 'throughput', figure: 'cost of metrics on (1 − with / without)', value: `${(metricsCost * 100).toFixed(1)}%`, target: '< 3%', met: metricsCost < 0.03 },
      { scenario: 'throughput', figure: 'CPU per record, all threads: Sluice / bare', value: `${(cpuUs('sluice') / cpuUs('bare')).toFixed(1)}× (${cpuUs('sluice').toFixed(1)} / ${cpuUs('bare').toFixed(1)} µs)` },
      { scenario: 'throughput', figure: 'poller thread idle (1 − event-loop utilisation): Sluice; bare kafkajs', value: `${(idle('sluice') * 100).toFixed(0)}%; ${(idle('bare') * 100).toFixed(0)}%` },
      { scenario: 'throughput', figure: 'client ceiling: bare @platformatic/kafka 1.x no-op stream, records/s', value: String(Math.round(platformatic)) },
      { scenario: 'throughput', figure: '  ratio @platformatic/kafka / bare kafkajs; CPU per record', value: `${(platformatic / bare).toFixed(2)}; ${cpuUs('platformatic').toFixed(1)} µs` },
    ],
    data: {
      records, partitions: PARTITIONS, valueBytes: 1024, batchSize: 1000, concurrency: CONCURRENCY,
      preloadPerSecond: Math.round(loaded.perSecond), passesMs: Object.fromEntries(SIDES.map((side) => [side, passes[side].map((x) => round(x, 0))])),
      bareRecordsPerSecond: Math.round(bare), sluiceRecordsPerSecond: Math.round(sluice), metricsRecordsPerSecond: Math.round(withMetrics), platformaticRecordsPerSecond: Math.round(platformatic), ratio: round(ratio, 3), metricsCost: round(metricsCost, 3),
      idleShare: Object.fromEntries(SIDES.map((side) => [side, round(idle(side), 3)])),
      cpuMicrosPerRecord: { bare: round(cpuUs('bare'), 2), sluice: round(cpuUs('sluice'), 2), platformatic: round(cpuUs('platformatic'), 2) },
    },
  };
};

/** One pass of one side over the whole topic with a fresh group: ms, CPU ms and the main thread's busy share from the first batch to the last record. */
async function drain(ctx: BenchContext, side: Side, topic: string, records: number): Promise<{ ms: number; cpu: number; utilization: number }> {
  let done = 0;
  let first = 0;
  let cpuAtFirst = process.cpuUsage();
  let eluAtFirst = performance.eventLoopUtilization();
  let finished!: () => void;
  const all = new Promise<void>((resolve) => (finished = resolve));
  const begin = () => {
    if (first) return;
    first = performance.now();
    cpuAtFirst = process.cpuUsage();
    eluAtFirst = performance.eventLoopUtilization();
  };
  const count = (n: number) => {
    done += n;
    if (done >= records) finished();
  };
  const groupId = uniqueName(`${side}-group`);
  const stopper =
    side === 'bare' ? await startBareSide(ctx.kafka, topic, groupId, begin, count)
    : side === 'platformatic' ? await startPlatformatic({ brokers: ctx.brokers, topic, groupId, concurrency: CONCURRENCY, onFirst: begin, onRecords: count })
    : await startSluiceSide(ctx, topic, groupId, begin, count, side === 'metrics');
  let timer: NodeJS.Timeout | undefined;
  try {
    const limitMs = 120_000;
    await Promise.race([all, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`${side} drained only ${done} of ${records} records in ${limitMs / 1000} s`)), limitMs)))]);
    const ms = performance.now() - first;
    const cpu = process.cpuUsage(cpuAtFirst);
    return { ms, cpu: (cpu.user + cpu.system) / 1000, utilization: performance.eventLoopUtilization(eluAtFirst).utilization };
  } finally {
    clearTimeout(timer);
    await stopper.stop();
  }
}

function startBareSide(kafka: Kafka, topic: string, groupId: string, begin: () => void, count: (n: number) => void) {
  return startBare(kafka, { topic, groupId, concurrency: CONCURRENCY, maximumBatchingWindowMs: 0, onBatchStart: begin, onRecords: count });
}

function startSluiceSide(ctx: BenchContext, topic: string, groupId: string, begin: () => void, count: (n: number) => void, metrics: boolean) {
  const events = new Instrumentation();
  events.on('poller.batch_received', begin);
  events.on('poller.chunk_end', (e) => e.ok && count(e.count));
  return startSluice({ name: 'bench-throughput', brokers: ctx.brokers, topic, groupId, batchSize: 1000, maximumBatchingWindowMs: 0, concurrency: CONCURRENCY, metrics }, events);
}
