/**
 * Review (5cb3869): the throughput buckets are cut by the sampler's timer. That timer ran every
 * BUCKET_MS from whenever the console started, not at the buckets' boundaries, so a bucket labelled
 * t held what ended from the timer's phase past t to its phase past t + 5 s: started mid-bucket,
 * an invocation ending at 1,005,500 was shown in the bucket of 1,000,000 (the one being filled,
 * and later a closed one), and the bucket of 1,005,000 never appeared at all.
 */
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import type { TriggerSpec } from '../config/types.ts';
import { Instrumentation } from '../observe/events.ts';
import { HealthTracker } from '../observe/health.ts';
import { ProgressTracker } from '../observe/progress.ts';
import { ConsoleState } from './console-state.ts';

const spec = {
  functionName: 'orders', topic: 'orders', consumerGroupId: 'g', path: 'functions.orders.events[0].sluice', timeoutMs: 10_000, maxPollIntervalMs: 120_000,
  batchSize: 100, parallelizationFactor: 1, engine: 'kafkajs', failure: {},
} as unknown as TriggerSpec;
const chunk = { functionName: 'orders', topic: 'orders', partition: 1, count: 2, firstOffset: 5, lastOffset: 6, attempt: 1, bytes: 40, fetchedAt: 999_000 };

beforeEach(() => void vi.useFakeTimers());
afterEach(() => void vi.useRealTimers());

it('counts an invocation in the 5-second bucket it ended in, whenever the console started', () => {
  let now = 1_002_500; // the console starts halfway through a bucket
  const clock = () => now;
  const events = new Instrumentation();
  const state = new ConsoleState({
    service: 's', stage: 'dev', mode: 'read-write', historySize: 200, unlisted: () => ({}), eventsPerSecond: 10, listedPerSecond: 50, triggers: [spec], events,
    health: new HealthTracker([spec], events, clock), progress: new ProgressTracker([spec], events, clock), now: clock,
  });
  // The clock and the timers move together, as they do outside a test.
  const pass = (ms: number) => {
    now += ms;
    vi.advanceTimersByTime(ms);
  };
  try {
    pass(3_000); // 1,005,500
    state.chunkStarted(chunk);
    state.chunkEnded({ ...chunk, ok: true, durationMs: 1 });
    // Between cuts: the bucket being filled is the one the invocation ended in.
    expect(state.overview().triggers[0]!.throughput.at(-1)).toEqual({ t: 1_005_000, records: 2, invocations: 1, failed: 0 });
    pass(5_000); // 1,010,500
    expect(state.overview().triggers[0]!.throughput).toEqual([
      { t: 1_000_000, records: 0, invocations: 0, failed: 0 },
      { t: 1_005_000, records: 2, invocations: 1, failed: 0 },
      { t: 1_010_000, records: 0, invocations: 0, failed: 0 },
    ]);
  } finally {
    state.close();
  }
});
