/**
 * What the console's own code costs the poller, read from a CPU profile rather than told apart from
 * noise: one poller process with the console on (no page) drains the whole backlog under
 * `--cpu-prof`, and the time spent in the functions of framework/console/ and in all they call
 * (builtins, the records' packing) is set against the CPU the whole process used per record over
 * the same drain (what the side-by-side pairs compare). What the console makes others do (garbage
 * for the collector) is not in it: bench/lib/console-bookkeeping.ts measures that part too, in a
 * loop of its own.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PollerChild } from '../lib/child.ts';
import { timeUnder } from '../lib/cpu-profile.ts';
import { uniqueName } from '../lib/kafka.ts';
import { waitUntil } from '../lib/stats.ts';
import type { BenchContext } from '../lib/types.ts';

export interface ConsoleCodeShare {
  /** The time in and under the console's functions per 1,000 records (ms), over the whole drain. */
  consolePer1000: number;
  /** The whole process's CPU per 1,000 records (ms), profiler included. */
  processPer1000: number;
  share: number;
  /** The same per invocation (µs). */
  perInvocationMicros: number;
}

export async function consoleCodeShare(ctx: BenchContext, topic: string, records: number, batchSize: number): Promise<ConsoleCodeShare> {
  // BENCH_CONSOLE_PROFILE_DIR keeps the profiles there (for a closer look), instead of a directory removed after.
  const kept = process.env.BENCH_CONSOLE_PROFILE_DIR;
  const dir = kept ? join(kept, `batchSize-${batchSize}`) : mkdtempSync(join(tmpdir(), 'sluice-console-profile-'));
  mkdirSync(dir, { recursive: true });
  try {
    const poller = new PollerChild(
      {
        name: 'bench-console', brokers: ctx.brokers, topic, groupId: uniqueName('console-profiled'), batchSize, maximumBatchingWindowMs: 0, concurrency: 4,
        env: batchSize === 100 ? { BENCH_LOG: '1' } : {}, discardOutput: true, console: true,
      },
      ['--cpu-prof', `--cpu-prof-dir=${dir}`],
    );
    let done = 0;
    let cpuMicros = 0;
    try {
      await poller.ready;
      const t0 = await poller.mark();
      await waitUntil('the profiled poller to drain the backlog', () => poller.records >= records && poller.chunks > 0, 300_000);
      await new Promise((resolve) => setTimeout(resolve, 300)); // its last progress report, with every invocation counted
      const t1 = await poller.mark();
      done = t1.records - t0.records;
      cpuMicros = t1.cpuMicros - t0.cpuMicros;
    } finally {
      await poller.stop(); // the profile is written as the process exits
    }
    // One profile per thread (the handlers' workers too): the console runs on the poller's.
    const profiles = readdirSync(dir).filter((f) => f.endsWith('.cpuprofile'));
    if (profiles.length === 0) throw new Error(`bench: the profiled poller wrote no CPU profile in ${dir}`);
    const consoleMs = profiles.reduce((n, f) => n + timeUnder(join(dir, f), (url) => url.includes('/framework/console/')).ms, 0);
    const consolePer1000 = (consoleMs / records) * 1000;
    const processPer1000 = cpuMicros / done; // µs per record = ms per 1,000
    return { consolePer1000, processPer1000, share: consolePer1000 / processPer1000, perInvocationMicros: (consoleMs * 1000) / poller.chunks };
  } finally {
    if (!kept) rmSync(dir, { recursive: true, force: true });
  }
}
