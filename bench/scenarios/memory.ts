/**
 * 4. Memory under backlog: a poller process in a fresh group over a topic with a backlog of
 * 1 KB records (1 M; 100 k in quick mode), a handler that takes 50 ms per chunk (batchSize
 * 100, the default window of 500 ms, concurrency 4). Its RSS, read from /proc every 250 ms for
 * 60 s (10 s), must stay under 300 MB and flat: the poller fetches as it goes instead of
 * buffering the backlog.
 */
import { PollerChild } from '../lib/child.ts';
import { createTopic, preload, uniqueName } from '../lib/kafka.ts';
import { round, sleep, slope } from '../lib/stats.ts';
import type { Scenario } from '../lib/types.ts';

const MB = 1024 * 1024;
const LIMIT_MB = 300;
/** "Flat": the peak of the last 40% of the sampling at most this much above the peak of the 40% before. */
const FLAT_GROWTH = 0.1;

export const memory: Scenario = async (ctx) => {
  const seconds = ctx.quick ? 10 : 60;
  const backlog = ctx.backlog ?? (await ownBacklog(ctx.kafka, ctx.quick ? 100_000 : 1_000_000));
  const poller = new PollerChild({
    name: 'bench-memory', brokers: ctx.brokers, topic: backlog.topic, groupId: uniqueName('memory-group'),
    batchSize: 100, concurrency: 4, env: { BENCH_SLEEP_MS: '50' },
  });
  const samples: Array<{ t: number; rss: number }> = [];
  let heap = { heapUsed: 0, external: 0, arrayBuffers: 0 };
  let processed = 0;
  try {
    await poller.ready;
    const started = performance.now();
    while (performance.now() - started < seconds * 1000) {
      const rss = poller.rssBytes();
      if (rss !== undefined) samples.push({ t: (performance.now() - started) / 1000, rss: rss / MB });
      if (poller.memory.heapUsed + poller.memory.external > heap.heapUsed + heap.external) heap = poller.memory;
      await sleep(250);
    }
    processed = poller.records;
  } finally {
    await poller.stop();
  }
  if (samples.length === 0) throw new Error('could not read the poller process RSS from /proc');
  const peak = Math.max(...samples.map((s) => s.rss));
  // Flatness is judged after a warm-up (workers spawning, JIT, the first fetches): the first 20% is left out.
  const from = seconds * 0.2;
  const middle = from + (seconds - from) / 2;
  const firstPeak = Math.max(...samples.filter((s) => s.t >= from && s.t < middle).map((s) => s.rss));
  const secondPeak = Math.max(...samples.filter((s) => s.t >= middle).map((s) => s.rss));
  const perMinute = slope(samples.filter((s) => s.t >= from).map((s) => ({ x: s.t / 60, y: s.rss })));
  const flat = secondPeak <= firstPeak * (1 + FLAT_GROWTH);
  ctx.log(`RSS peak ${peak.toFixed(0)} MB (middle 40% ${firstPeak.toFixed(0)}, last 40% ${secondPeak.toFixed(0)}), ${processed} of ${backlog.records} records processed`);
  return {
    figures: [
      { scenario: 'memory', figure: `poller RSS peak, ${Math.round(backlog.records / 1000)} k records waiting, 50 ms handler`, value: `${peak.toFixed(0)} MB`, target: `< ${LIMIT_MB} MB`, met: peak < LIMIT_MB },
      {
        scenario: 'memory',
        figure: `RSS peak, last 40% / middle 40% of ${seconds} s${ctx.quick ? '' : ' (least-squares slope)'}`,
        value: `${(secondPeak / firstPeak).toFixed(2)}${ctx.quick ? '' : ` (${perMinute >= 0 ? '+' : ''}${perMinute.toFixed(1)} MB/min)`}`,
        target: `≤ ${(1 + FLAT_GROWTH).toFixed(2)} (flat)`,
        met: flat,
      },
      { scenario: 'memory', figure: 'records processed during the sampling (backlog left)', value: `${processed} (${backlog.records - processed})` },
    ],
    data: {
      backlogRecords: backlog.records, seconds, batchSize: 100, handlerMs: 50, peakMb: round(peak), middlePeakMb: round(firstPeak), lastPeakMb: round(secondPeak),
      slopeMbPerMinute: round(perMinute, 2), processed, peakHeapMb: round(heap.heapUsed / MB), peakExternalMb: round(heap.external / MB),
      rssMb: samples.filter((_, i) => i % 4 === 0).map((s) => [round(s.t), round(s.rss)]),
    },
  };
};

async function ownBacklog(kafka: Parameters<typeof preload>[0], records: number) {
  const topic = uniqueName('memory');
  await createTopic(kafka, topic, 6);
  await preload(kafka, topic, { records, partitions: 6, valueBytes: 1024 });
  return { topic, records, partitions: 6 };
}
