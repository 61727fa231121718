/**
 * 7. Parallelization (issue 28): one partition of records with 100 keys taken round-robin, a
 * handler that waits 100 ms per invocation, batchSize 10, drained with parallelizationFactor 1
 * and then 10 (each on a topic and group of its own). Records/s is taken over the steady part
 * of each drain, from the 10% to the 90% record done, so the workers' cold starts and the last
 * chunks do not count; factor 10 is figured against factor 1 of the same run (ideal 10×).
 * Both engines drain in the same run: librdkafka's factor 10 against its own factor 1. Then a
 * topic without keys at factor 10: with the default ordering its records share one key and run
 * one chunk at a time; with `ordering: unordered` ten, each again against factor 1. Last, 8 keys
 * interleaved (issue 39): factor 4 against factor 1 of the same keys, ideal 4× (chunks cut by
 * offset, first fit, gave about 1×: the first chunk held every key).
 */
import { Instrumentation } from '../../framework/observe/events.ts';
import { createTopic, deleteTopics, preload, uniqueName } from '../lib/kafka.ts';
import { startSluice } from '../lib/sluice.ts';
import { perSecond, round, waitUntil } from '../lib/stats.ts';
import type { BenchContext, Figure, Scenario } from '../lib/types.ts';

const KEYS = 100;
/** Few keys, interleaved: each chunk cut by offset would hold them all. */
const FEW_KEYS = 8;
const FEW_KEYS_FACTOR = 4;
const BATCH_SIZE = 10;
const SLEEP_MS = 100;
/** The steady part of a drain: between these shares of its records done. */
const STEADY = [0.1, 0.9] as const;

type Engine = 'kafkajs' | 'librdkafka';

interface Drain {
  engine: Engine;
  factor: number;
  keys?: number;
  /** Records without keys drained with `ordering: unordered`. */
  unordered?: boolean;
  records: number;
  recordsPerSecond: number;
  /** Chunks in flight, averaged over the steady part (time-weighted). */
  meanInFlight: number;
  /** Batches kafkajs handed over (each ends once its last chunk does). */
  batches: number;
  seconds: number;
}

export const parallelization: Scenario = async (ctx) => {
  // About 100 records/s at factor 1 and 1,000 at factor 10: some 12 s each (3 s in quick mode).
  const drains: Drain[] = [];
  const figures: Figure[] = [];
  const setting = `1 partition, ${KEYS} keys, ${SLEEP_MS} ms handler, batchSize ${BATCH_SIZE}`;
  let met = true;
  for (const engine of ['kafkajs', 'librdkafka'] as const) {
    const one = await drain(ctx, engine, 1, ctx.quick ? 300 : 1_200);
    const ten = await drain(ctx, engine, 10, ctx.quick ? 3_000 : 12_000);
    const ratio = ten.recordsPerSecond / one.recordsPerSecond;
    met &&= ratio >= 8;
    drains.push(one, ten);
    figures.push(
      { scenario: 'parallelization', figure: `${engine}: factor 1, ${setting}, records/s`, value: String(Math.round(one.recordsPerSecond)) },
      { scenario: 'parallelization', figure: `${engine}: factor 10, ${setting}, records/s`, value: String(Math.round(ten.recordsPerSecond)) },
      { scenario: 'parallelization', figure: `${engine}: ratio factor 10 / factor 1`, value: `${ratio.toFixed(2)}×`, target: '≥ 8×', met: ratio >= 8 },
      { scenario: 'parallelization', figure: `  ${engine}, factor 10: chunks in flight, mean over the steady part`, value: ten.meanInFlight.toFixed(1) },
    );
    const fewOne = await drain(ctx, engine, 1, ctx.quick ? 300 : 1_200, false, FEW_KEYS);
    const fewFour = await drain(ctx, engine, FEW_KEYS_FACTOR, ctx.quick ? 1_200 : 4_800, false, FEW_KEYS);
    const fewRatio = fewFour.recordsPerSecond / fewOne.recordsPerSecond;
    met &&= fewRatio >= 3.5;
    drains.push(fewOne, fewFour);
    figures.push(
      { scenario: 'parallelization', figure: `${engine}: ${FEW_KEYS} keys interleaved, factor ${FEW_KEYS_FACTOR} / factor 1 (${Math.round(fewFour.recordsPerSecond)} / ${Math.round(fewOne.recordsPerSecond)} records/s)`, value: `${fewRatio.toFixed(2)}×`, target: '≥ 3.5×', met: fewRatio >= 3.5 },
      { scenario: 'parallelization', figure: `  ${engine}, ${FEW_KEYS} keys, factor ${FEW_KEYS_FACTOR}: chunks in flight, mean over the steady part`, value: fewFour.meanInFlight.toFixed(1) },
    );
    const keyless = await drain(ctx, engine, 10, ctx.quick ? 3_000 : 12_000, true);
    const keylessRatio = keyless.recordsPerSecond / one.recordsPerSecond;
    drains.push(keyless);
    figures.push(
      { scenario: 'parallelization', figure: `${engine}: no keys, factor 10, ordering: unordered, records/s (÷ factor 1 above)`, value: `${Math.round(keyless.recordsPerSecond)} (${keylessRatio.toFixed(2)}×)` },
      { scenario: 'parallelization', figure: `  ${engine}, no keys, unordered: chunks in flight, mean over the steady part`, value: keyless.meanInFlight.toFixed(1) },
    );
  }
  return { figures, data: { keys: KEYS, batchSize: BATCH_SIZE, sleepMs: SLEEP_MS, steady: STEADY, allMet: met, drains } };
};

/** Preloads `records` records with `keys` keys (`unordered`: without keys) on a fresh 1-partition topic and drains them with `factor`. */
async function drain(ctx: BenchContext, engine: Engine, factor: number, records: number, unordered = false, keys = KEYS): Promise<Drain> {
  const topic = uniqueName(`parallel-${engine}-${factor}`);
  await createTopic(ctx.kafka, topic, 1);
  // One request in flight: offsets follow the keys' round-robin.
  await preload(ctx.kafka, topic, { records, partitions: 1, valueBytes: 100, ...(unordered ? {} : { keys }), inFlight: 1 });

  /** [ms, records done so far] at each chunk's end; [ms, chunks in flight] at each change. */
  const done: Array<[number, number]> = [];
  const inFlight: Array<[number, number]> = [];
  let count = 0;
  let running = 0;
  let batches = 0;
  const events = new Instrumentation();
  events.on('poller.batch_received', () => batches++);
  events.on('poller.chunk_start', () => inFlight.push([performance.now(), ++running]));
  events.on('poller.chunk_end', (e) => {
    const at = performance.now();
    inFlight.push([at, --running]);
    if (e.ok) done.push([at, (count += e.count)]);
  });
  const started = performance.now();
  const sluice = await startSluice({
    name: `bench-parallel-${engine}-${factor}`, brokers: ctx.brokers, topic, groupId: uniqueName(`parallel-${factor}-group`), engine,
    batchSize: BATCH_SIZE, parallelizationFactor: factor, ...(unordered ? { ordering: 'unordered' as const } : {}), maximumBatchingWindowMs: 0, concurrency: 1, env: { BENCH_SLEEP_MS: String(SLEEP_MS) },
  }, events);
  try {
    const idealMs = (records / (factor * BATCH_SIZE)) * SLEEP_MS;
    await waitUntil(`${engine}, factor ${factor}: all ${records} records invoked`, () => count >= records, 3 * idealMs + 60_000);
  } finally {
    await sluice.stop();
    await deleteTopics(ctx.kafka, [topic]);
  }
  const [from, to] = STEADY.map((share) => done.find(([, n]) => n >= share * records)!);
  const recordsPerSecond = perSecond(to![1] - from![1], to![0] - from![0]);
  const meanInFlight = timeWeightedMean(inFlight, from![0], to![0]);
  const seconds = (performance.now() - started) / 1000;
  ctx.log(`${engine}, factor ${factor}${unordered ? ', no keys, unordered' : `, ${keys} keys`}: ${records} records in ${seconds.toFixed(1)} s, ${batches} batches; steady ${Math.round(recordsPerSecond)} records/s, ${meanInFlight.toFixed(1)} chunks in flight`);
  return { engine, factor, ...(unordered ? { unordered } : { keys }), records, recordsPerSecond: round(recordsPerSecond, 1), meanInFlight: round(meanInFlight, 2), batches, seconds: round(seconds, 1) };
}

/** The mean of a step function given as [time, value] changes, over [from, to]. */
function timeWeightedMean(steps: ReadonlyArray<[number, number]>, from: number, to: number): number {
  let sum = 0;
  let value = 0;
  let at = from;
  for (const [t, v] of steps) {
    if (t > to) break;
    if (t > at) {
      sum += value * (t - at);
      at = t;
    }
    value = v;
  }
  sum += value * (to - at);
  return to > from ? sum / (to - from) : 0;
}
