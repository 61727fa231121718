/**
 * The bench's handler, steered by its environment. BENCH_STAMP=1: returns when it started
 * (`performance.timeOrigin + performance.now()`: epoch ms with sub-millisecond precision,
 * comparable with the poller thread's clock), taken first thing, and whether this was the
 * worker's first invocation (a cold start). BENCH_SLEEP_MS: then waits that long, a fixed
 * handler duration (plus up to BENCH_SLEEP_JITTER_MS more, at random). BENCH_LOG=1: writes one line per
 * invocation, as a handler that logs does. With none of these it is a no-op.
 */
const stamp = process.env.BENCH_STAMP === '1';
const sleepMs = Number(process.env.BENCH_SLEEP_MS ?? 0);
const jitterMs = Number(process.env.BENCH_SLEEP_JITTER_MS ?? 0);
const log = process.env.BENCH_LOG === '1';
let invocations = 0;

export const handler = async (): Promise<{ start: number; cold: boolean } | undefined> => {
  const start = performance.timeOrigin + performance.now();
  const cold = invocations++ === 0;
  if (log) console.log(`invocation ${invocations}`);
  const wait = sleepMs + Math.random() * jitterMs;
  if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
  return stamp ? { start, cold } : undefined;
};
