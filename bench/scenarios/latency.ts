/**
 * 3. Latency: a producer at a steady 1,000 records/s (1 KB, 6 partitions), a poller process
 * with maximumBatchingWindow 0; per record, from its produce timestamp (CreateTime, set by
 * the producer when it sends) to the start of the handler invocation that received it.
 * The target is for the steady state: records of the first seconds (while the poller spawns
 * its handler workers on demand, each a cold start) are reported apart.
 */
import type { Kafka } from 'kafkajs';
import { randomBytes } from 'node:crypto';
import { PollerChild } from '../lib/child.ts';
import { createTopic, deleteTopics, uniqueName } from '../lib/kafka.ts';
import { round, sleep, spread, waitUntil } from '../lib/stats.ts';
import type { Scenario } from '../lib/types.ts';

const PARTITIONS = 6;
const RATE = 1_000;

export const latency: Scenario = async (ctx) => {
  const seconds = ctx.quick ? 5 : 30;
  const warmupMs = ctx.quick ? 2_000 : 3_000;
  const topic = uniqueName('latency');
  await createTopic(ctx.kafka, topic, PARTITIONS);
  const poller = new PollerChild({
    name: 'bench-latency', brokers: ctx.brokers, topic, groupId: uniqueName('latency-group'),
    batchSize: 100, maximumBatchingWindowMs: 0, concurrency: 4, env: { BENCH_STAMP: '1' }, latency: true,
  });
  let samples: Array<[number, number]> = [];
  let produced = 0;
  let steadyFrom = 0;
  try {
    await poller.ready;
    await waitUntil('the latency poller to join', () => poller.joins.length > 0, 60_000);
    steadyFrom = Date.now() + warmupMs;
    produced = await produceSteadily(ctx.kafka, topic, RATE, warmupMs + seconds * 1000);
    await waitUntil(`all ${produced} records invoked`, () => poller.records >= produced, 30_000);
    samples = await poller.samples();
  } finally {
    await poller.stop();
    await deleteTopics(ctx.kafka, [topic]);
  }
  const s = spread(samples.filter(([ts]) => ts >= steadyFrom).map(([, ms]) => ms));
  const warm = spread(samples.filter(([ts]) => ts < steadyFrom).map(([, ms]) => ms));
  ctx.log(`${produced} records at ${RATE}/s; steady: ${s.count} samples, p50 ${s.p50.toFixed(1)} ms, p99 ${s.p99.toFixed(1)} ms; first ${warmupMs / 1000} s: p99 ${warm.p99.toFixed(0)} ms`);
  const rounded = (x: typeof s) => ({ count: x.count, p50: round(x.p50, 2), p99: round(x.p99, 2), max: round(x.max, 2), mean: round(x.mean, 2) });
  return {
    figures: [
      { scenario: 'latency', figure: `produce → handler start at ${RATE} records/s, p50`, value: `${s.p50.toFixed(1)} ms` },
      { scenario: 'latency', figure: `produce → handler start at ${RATE} records/s, p99 (${seconds} s steady)`, value: `${s.p99.toFixed(1)} ms`, target: '< 100 ms', met: s.p99 < 100 },
      { scenario: 'latency', figure: `  first ${warmupMs / 1000} s (workers spawned on demand), p99 / max`, value: `${warm.p99.toFixed(0)} ms / ${warm.max.toFixed(0)} ms` },
    ],
    data: { rate: RATE, seconds, warmupMs, produced, batchSize: 100, maximumBatchingWindowMs: 0, steadyLatencyMs: rounded(s), warmupLatencyMs: rounded(warm) },
  };
};

/** Sends `rate` records/s for `ms`, a few records every 10 ms on schedule; returns how many it sent. */
async function produceSteadily(kafka: Kafka, topic: string, rate: number, ms: number): Promise<number> {
  const producer = kafka.producer({ allowAutoTopicCreation: false });
  await producer.connect();
  const value = randomBytes(1024);
  let sent = 0;
  try {
    const started = performance.now();
    for (let elapsed = 0; elapsed < ms; elapsed = performance.now() - started) {
      const due = Math.floor((elapsed * rate) / 1000) - sent;
      if (due > 0) {
        const messages = Array.from({ length: due }, (_, i) => ({ value, partition: (sent + i) % PARTITIONS }));
        sent += due;
        await producer.send({ topic, acks: 1, messages });
      }
      await sleep(Math.max(0, 10 - ((performance.now() - started) % 10)));
    }
  } finally {
    await producer.disconnect();
  }
  return sent;
}
