/**
 * The console's cost (issue 42). With no page open, three ways: in a loop without a broker (the
 * console's CPU per invocation, bench/lib/console-bookkeeping.ts); side by side (console-pairs.ts):
 * two poller processes drain the backlog at once, one with the health server only (the baseline),
 * one with the console on, beside pairs of the baseline with itself, and the cost is the difference
 * of the two kinds' medians with a 90% bootstrap interval (one holding 0: not measurable); and a
 * profiled drain (console-profiled.ts), the console's own self time against the poller's CPU. With a
 * page open, side by side too: pairs of the baseline beside the console with its page open in a real
 * browser (Chromium through playwright-core) on its live invocations view, read against the same
 * baseline-beside-itself pairs, with Chromium's own CPU per 1,000 records. (Until 2026-12-06 the
 * page was measured one pass after another, where a blank tab "cost" up to 15%: the drift.) Twice:
 * at batchSize 1000 (the throughput scenario's shape), and at batchSize 100 with a handler that
 * writes a line per invocation, a firehose of about 2,000 invocations a second, each recorded with
 * its records and line: the console's worst case.
 */
import { chromium } from 'playwright-core';
import { consoleBookkeeping } from '../lib/console-bookkeeping.ts';
import { createTopic, preload, uniqueName } from '../lib/kafka.ts';
import { median } from '../lib/stats.ts';
import type { Figure, Scenario } from '../lib/types.ts';
import { sideBySide, summarizePairs, type PairsSummary } from './console-pairs.ts';
import { consoleCodeShare } from './console-profiled.ts';

const PARTITIONS = 6;
export const CHROMIUM = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';
/** BENCH_CONSOLE_BATCH_SIZES: `100` for the firehose alone. */
const BATCH_SIZES = (process.env.BENCH_CONSOLE_BATCH_SIZES ?? '1000,100').split(',').map(Number);
/** Pairs of each kind side by side (the console beside the baseline, the baseline beside itself): BENCH_CONSOLE_PAIRS, 6. */
const PAIRS = Number(process.env.BENCH_CONSOLE_PAIRS ?? 6);

export const consoleCost: Scenario = async (ctx) => {
  const records = ctx.quick ? 300_000 : 2_000_000;
  const topic = uniqueName('console');
  await createTopic(ctx.kafka, topic, PARTITIONS);
  await preload(ctx.kafka, topic, { records, partitions: PARTITIONS, valueBytes: 256 });
  const figures: Figure[] = [];
  const data: Record<string, unknown> = { records, partitions: PARTITIONS };
  const loop = await consoleBookkeeping(ctx.quick ? 50_000 : 200_000);
  ctx.log(`the console's own work per invocation, in a loop without a broker: ${(loop.with - loop.without).toFixed(2)} µs (${loop.without.toFixed(2)} µs without it)`);
  figures.push({ scenario: 'console', figure: `no page open, in a loop without a broker (100 records and a line an invocation): the console's CPU per invocation / the poller's side of one without it`, value: `${(loop.with - loop.without).toFixed(2)} µs / ${loop.without.toFixed(2)} µs` });
  data.loop = loop;
  // Launched last, beside the try that closes it: a failure before it leaves no browser running.
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  try {
    for (const batchSize of BATCH_SIZES) {
      const paired = await sideBySide(ctx, topic, records, batchSize, ctx.quick ? 1 : PAIRS, browser);
      const noPage = summarizePairs(paired);
      const open = summarizePairs({ measured: paired.page, same: paired.same });
      const streamed = summarizePairs({ measured: paired.stream, same: paired.same });
      const code = await consoleCodeShare(ctx, topic, records, batchSize);
      const at = `batchSize ${batchSize}${batchSize === 100 ? ', a line per invocation' : ''}`;
      const share = (x: number) => `${(x * 100).toFixed(1)}%`;
      const signed = (x: number) => `${x > 0 ? '+' : ''}${share(x)}`;
      const pairs = `${paired.measured.length} pair${paired.measured.length === 1 ? '' : 's'}`;
      const interval = (d: PairsSummary['beyondNoise']['cpu']) => `${signed(d.difference)} (90%: ${signed(d.low)} to ${signed(d.high)})`;
      const holdsZero = (d: PairsSummary['beyondNoise']['cpu']) => d.low <= 0 && d.high >= 0;
      const ms = (xs: number[]) => `${median(xs).toFixed(2)} ms`;
      // Each kind of pair is read against the baseline beside itself: figures only for the kinds that ran (BENCH_CONSOLE_KINDS).
      const against = (xs: unknown[]) => xs.length > 0 && paired.same.length > 0;
      figures.push({ scenario: 'console', figure: `${at}: console on, no page open: the time in and under its code, against the poller's CPU per record (a profiled drain)`, value: `${share(code.share)} (${code.consolePer1000.toFixed(3)} of ${code.processPer1000.toFixed(2)} ms per 1,000 records; ${code.perInvocationMicros.toFixed(1)} µs an invocation)`, target: '< 1%', met: code.share < 0.01 });
      if (against(paired.measured)) {
        figures.push(
          { scenario: 'console', figure: `  no page, side by side (${pairs} of each kind): CPU per record, console beside the baseline less the baseline beside itself (difference of medians)`, value: interval(noPage.beyondNoise.cpu), target: 'holds 0', met: holdsZero(noPage.beyondNoise.cpu) },
          { scenario: 'console', figure: `  the same for throughput`, value: interval(noPage.beyondNoise.throughput), target: 'holds 0', met: holdsZero(noPage.beyondNoise.throughput) },
          { scenario: 'console', figure: `  medians of the pairs, console beside the baseline / the baseline beside itself: throughput cost; CPU per record`, value: `${signed(noPage.throughputCost)} / ${signed(median(paired.same.map((p) => p.throughputCost)))}; ${signed(noPage.cpuCost)} / ${signed(median(paired.same.map((p) => p.cpuCost)))}` },
        );
      }
      if (paired.same.length > 0) figures.push({ scenario: 'console', figure: `  the baseline beside itself, widest difference: throughput / CPU per record`, value: `${share(noPage.noise.throughput)} / ${share(noPage.noise.cpu)}` });
      if (against(paired.page)) {
        figures.push(
          { scenario: 'console', figure: `  page open in Chromium on live invocations, side by side: CPU per record, against the baseline beside itself`, value: interval(open.beyondNoise.cpu), target: '< 5%', met: open.beyondNoise.cpu.difference < 0.05 },
          { scenario: 'console', figure: `  the same for throughput (Chromium's CPU slows both pollers of a pair alike)`, value: interval(open.beyondNoise.throughput), target: '< 5%', met: open.beyondNoise.throughput.difference < 0.05 },
        );
      }
      if (against(paired.stream)) {
        figures.push(
          { scenario: 'console', figure: `  its live stream read by the bench, no browser (the poller's part of a page's cost): CPU per record, against the baseline beside itself`, value: interval(streamed.beyondNoise.cpu) },
          { scenario: 'console', figure: `  the same for throughput`, value: interval(streamed.beyondNoise.throughput) },
        );
      }
      if (paired.page.length > 0) figures.push({ scenario: 'console', figure: `  CPU per 1,000 records, medians of the page pairs: baseline / console with its page open / Chromium`, value: `${ms(paired.page.map((p) => p.cpuPer1000[0]))} / ${ms(paired.page.map((p) => p.cpuPer1000[1]))} / ${ms(paired.page.map((p) => p.browserPer1000))}` });
      data[`batchSize${batchSize}`] = { sideBySide: paired, beyondNoise: noPage.beyondNoise, pageOpen: open.beyondNoise, streamRead: streamed.beyondNoise, consoleCode: code };
    }
  } finally {
    await browser.close();
  }
  return { figures, data };
};
