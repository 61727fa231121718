/**
 * Queue mode's scaling (issue 43): one partition, a handler that takes 1 s, batchSize 1 and one
 * invocation at a time per poller (concurrency 1), a backlog larger than any side drains. Stream
 * mode with one poller, then queue mode with one poller and with four (members of one share group,
 * in this process): records finished per second over a window that starts once every poller has
 * finished its first invocation (its worker's cold start). A stream trigger cannot pass one
 * invocation at a time on one partition without parallelizationFactor; four share-group members
 * can. Target: four pollers ≥ 3.5× one.
 */
import { Instrumentation } from '../../framework/observe/events.ts';
import { createTopic, deleteTopics, preload, uniqueName } from '../lib/kafka.ts';
import { startSluice, type RunningSluice } from '../lib/sluice.ts';
import { waitUntil } from '../lib/stats.ts';
import type { BenchContext, Figure, Scenario } from '../lib/types.ts';

const HANDLER_MS = 1_000;

export const queueScale: Scenario = async (ctx) => {
  const windowMs = ctx.quick ? 6_000 : 15_000;
  const stream = await side(ctx, 'stream', 1, windowMs);
  const one = await side(ctx, 'queue', 1, windowMs);
  const four = await side(ctx, 'queue', 4, windowMs);
  const ratio = four / one;
  const figures: Figure[] = [
    { scenario: 'queue-scale', figure: `1 partition, ${HANDLER_MS} ms handler, batchSize 1, concurrency 1: stream mode, 1 poller, records/s`, value: stream.toFixed(2) },
    { scenario: 'queue-scale', figure: '  queue mode, 1 poller, records/s', value: one.toFixed(2) },
    { scenario: 'queue-scale', figure: '  queue mode, 4 pollers, records/s', value: four.toFixed(2) },
    { scenario: 'queue-scale', figure: '  queue mode: 4 pollers / 1 poller', value: `${ratio.toFixed(2)}×`, target: '≥ 3.5×', met: ratio >= 3.5 },
  ];
  return { figures, data: { handlerMs: HANDLER_MS, windowMs, recordsPerSecond: { stream, queue1: one, queue4: four } } };
};

async function side(ctx: BenchContext, mode: 'stream' | 'queue', pollers: number, windowMs: number): Promise<number> {
  const topic = uniqueName(`queue-scale-${mode}-${pollers}`);
  const failed = uniqueName('queue-scale-failed');
  await createTopic(ctx.kafka, topic, 1);
  await createTopic(ctx.kafka, failed, 1);
  const backlog = Math.ceil((windowMs / HANDLER_MS) * pollers * 3) + 20;
  await preload(ctx.kafka, topic, { records: backlog, partitions: 1, valueBytes: 100 });
  const group = uniqueName(`queue-scale-${mode}`);
  const warm = new Set<number>();
  const ends: number[] = [];
  const running: RunningSluice[] = [];
  try {
    for (let i = 0; i < pollers; i++) {
      const events = new Instrumentation();
      events.on('poller.chunk_end', (e) => {
        if (!e.ok) return;
        warm.add(i);
        ends.push(performance.now());
      });
      running.push(await startSluice({
        name: `bench-queue-${mode}-${i}`, brokers: ctx.brokers, topic, groupId: group, batchSize: 1, maximumBatchingWindowMs: mode === 'stream' ? 0 : undefined, concurrency: 1,
        env: { BENCH_SLEEP_MS: String(HANDLER_MS) }, ...(mode === 'queue' ? { queue: { failedTopic: failed } } : {}),
      }, events));
    }
    await waitUntil(`${mode}, ${pollers} poller(s): each finished an invocation`, () => warm.size === pollers, 60_000);
    const from = performance.now();
    await new Promise((r) => setTimeout(r, windowMs));
    const done = ends.filter((t) => t > from && t <= from + windowMs).length;
    ctx.log(`${mode}, ${pollers} poller(s): ${done} records finished in ${windowMs / 1000} s`);
    return (done / windowMs) * 1000;
  } finally {
    await Promise.all(running.map((r) => r.stop()));
    await deleteTopics(ctx.kafka, [topic, failed]);
  }
}
