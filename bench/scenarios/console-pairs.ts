/**
 * The console's cost, measured side by side: two poller processes drain the same backlog at the
 * same time, each in its own group, one with the health server alone (the baseline), one with the
 * console on, and both are read at the same instants (records done, CPU of the whole process).
 * Taken one after the other, the same pass ran anywhere from 6.2 to 8.7 ms of CPU per 1,000 records
 * within one run (this machine's drift, 2026-12-06), far more than a 2% cost; side by side the drift
 * falls on both pollers of a pair alike. Four kinds of pair alternate: the baseline beside the
 * console with no page open, beside the console with its page open in Chromium on live
 * invocations, beside the console whose live stream the bench reads itself (the poller's part of a
 * page's cost, without the drawing; these two given a browser), and beside itself, which shows what
 * the instrument cannot tell apart: a cost inside its spread is not measurable. Chromium's CPU
 * counts on both pollers of a page pair alike (the machine's cores are shared); its own CPU per
 * 1,000 records is read too.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { get, type ClientRequest } from 'node:http';
import type { Browser, Page } from 'playwright-core';
import { PollerChild } from '../lib/child.ts';
import { uniqueName } from '../lib/kafka.ts';
import { median, medianDifference, round, waitUntil } from '../lib/stats.ts';
import type { BenchContext } from '../lib/types.ts';

/** Each pair is read from this share of the backlog done (by the slower poller) to this share (by the faster). */
const WINDOW = [0.15, 0.85] as const;
/** A pair counts only if each poller did at least this share of the backlog inside its window. */
const MIN_SHARE = 0.2;

export interface PairReading {
  /** 1 − (records of the second poller / records of the first), over the same window. */
  throughputCost: number;
  /** CPU per record of the second poller over the first's, less 1. */
  cpuCost: number;
  /** CPU per 1,000 records (ms), first and second poller. */
  cpuPer1000: [number, number];
  /** Of which garbage collection on the poller's main thread (ms per 1,000 records). */
  gcPer1000: [number, number];
}

export interface SideBySide {
  /** The baseline beside the console (no page). */
  measured: PairReading[];
  /** The baseline beside the console with its page open (none without a browser). */
  page: PageReading[];
  /** The baseline beside the console whose live stream the bench reads itself, no browser: the poller's part of a page's cost (none without a browser). */
  stream: PairReading[];
  /** The baseline beside itself. */
  same: PairReading[];
}

export interface PageReading extends PairReading {
  /** Chromium's CPU (all its processes) per 1,000 records of the console's poller, over the window. */
  browserPer1000: number;
}

type Kind = 'same' | 'console' | 'page' | 'stream';
const LABEL: Record<Kind, string> = { same: 'baseline | baseline', console: 'baseline | console (no page)', page: 'baseline | console (page open)', stream: 'baseline | console (its stream read, no browser)' };

/** `pairs` of each kind, the kinds taking turns; with `browser`, page pairs too. */
export async function sideBySide(ctx: BenchContext, topic: string, records: number, batchSize: number, pairs: number, browser?: Browser): Promise<SideBySide> {
  const result: SideBySide = { measured: [], page: [], stream: [], same: [] };
  const all: Kind[] = browser ? ['console', 'same', 'page', 'stream'] : ['console', 'same'];
  // BENCH_CONSOLE_KINDS (e.g. `same,stream`): only those kinds of pair, to compare two builds of one part quickly.
  const asked = process.env.BENCH_CONSOLE_KINDS?.split(',').map((k) => k.trim());
  const unknown = asked?.filter((k) => !all.includes(k as Kind));
  if (unknown?.length) throw new Error(`bench: BENCH_CONSOLE_KINDS names ${unknown.join(', ')}; the kinds of pair here are ${all.join(', ')}`);
  const kinds = asked ? all.filter((k) => asked.includes(k)) : all;
  for (let i = 0; i < pairs * kinds.length; i++) {
    const kind = kinds[i % kinds.length]!;
    let reading: PairReading | PageReading | undefined;
    // A pair whose pollers did not drain side by side (one group joined late) is run again.
    for (let attempt = 1; !reading; attempt++) {
      reading = await pair(ctx, topic, records, batchSize, kind, Math.floor(i / kinds.length), browser);
      if (!reading && attempt === 3) throw new Error(`bench: three pairs in a row did not drain side by side (each poller must do ${Math.round(MIN_SHARE * 100)}% of the backlog while the other runs): make the backlog larger`);
      if (!reading) ctx.log(`batchSize ${batchSize} side by side: the two pollers did not drain together (a late join); the pair runs again`);
    }
    if (kind === 'page') result.page.push(reading as PageReading);
    else (kind === 'console' ? result.measured : kind === 'stream' ? result.stream : result.same).push(reading);
    const browserCpu = 'browserPer1000' in reading ? `; Chromium ${reading.browserPer1000.toFixed(2)} ms per 1,000` : '';
    ctx.log(
      `batchSize ${batchSize} side by side, ${LABEL[kind]} pair ${Math.floor(i / kinds.length) + 1}: ` +
        `throughput ${pct(-reading.throughputCost)}, CPU per record ${pct(reading.cpuCost)} (${reading.cpuPer1000.map((c) => `${c.toFixed(2)} ms`).join(' | ')} per 1,000, of which GC ${reading.gcPer1000.map((c) => `${c.toFixed(2)} ms`).join(' | ')}${browserCpu})`,
    );
  }
  return result;
}

export interface PairsSummary {
  /** Medians of the measured pairs (the console beside the baseline). */
  throughputCost: number;
  cpuCost: number;
  /** How far the baseline-beside-itself pairs lay apart (the largest difference either way). */
  noise: { throughput: number; cpu: number };
  /**
   * The measured pairs' median less the baseline-beside-itself pairs' median, with its 90% bootstrap
   * interval: what is left of a cost once the instrument's own lean (which poller of a pair runs a
   * little ahead) is taken out. An interval holding 0 is a cost the instrument cannot tell from none.
   */
  beyondNoise: { throughput: ReturnType<typeof medianDifference>; cpu: ReturnType<typeof medianDifference> };
}

/** The pairs' medians, the baseline-beside-itself spread, and the cost past it (`measured`: the no-page pairs, or the page pairs). */
export function summarizePairs(s: Pick<SideBySide, 'measured' | 'same'>): PairsSummary {
  const widest = (xs: number[]) => Math.max(...xs.map(Math.abs));
  const of = (pairs: PairReading[], k: 'throughputCost' | 'cpuCost') => pairs.map((r) => r[k]);
  return {
    throughputCost: median(of(s.measured, 'throughputCost')),
    cpuCost: median(of(s.measured, 'cpuCost')),
    noise: { throughput: widest(of(s.same, 'throughputCost')), cpu: widest(of(s.same, 'cpuCost')) },
    beyondNoise: { throughput: medianDifference(of(s.measured, 'throughputCost'), of(s.same, 'throughputCost')), cpu: medianDifference(of(s.measured, 'cpuCost'), of(s.same, 'cpuCost')) },
  };
}

/** One pair's reading; undefined if its pollers did not drain side by side (too little of the backlog inside the window). */
async function pair(ctx: BenchContext, topic: string, records: number, batchSize: number, kind: Kind, nth: number, browser?: Browser): Promise<PairReading | PageReading | undefined> {
  const poller = (withConsole: boolean) =>
    new PollerChild({
      name: 'bench-console', brokers: ctx.brokers, topic, groupId: uniqueName(`console-pair-${withConsole ? 'console' : 'baseline'}`), batchSize, maximumBatchingWindowMs: 0, concurrency: 4,
      env: batchSize === 100 ? { BENCH_LOG: '1' } : {}, discardOutput: true, ...(withConsole ? { console: true } : { http: true }),
    });
  const measured = kind !== 'same';
  // Which of the two is forked first alternates from one pair of a kind to its next: a head start is no side's. `first` is the baseline.
  const early = nth % 2 === 1 ? poller(measured) : undefined;
  const first = poller(false);
  const second = early ?? poller(measured);
  let page: Page | undefined;
  let stream: ClientRequest | undefined;
  let threw = false;
  try {
    await Promise.all([first.ready, second.ready]);
    if (kind === 'page') {
      // Open and live before the window starts (which waits for it): its load is not counted.
      page = await browser!.newPage();
      await page.goto(`${second.consoleUrl}#/invocations`);
      await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
    }
    if (kind === 'stream') stream = await readLive(second.consoleUrl!);
    await waitUntil('both pollers past the window\'s start', () => Math.min(first.records, second.records) >= records * WINDOW[0], 180_000);
    const [t0, browser0] = [await Promise.all([first.mark(), second.mark()]), chromiumCpuMs()];
    await waitUntil('a poller at the window\'s end', () => Math.max(first.records, second.records) >= records * WINDOW[1], 180_000);
    const [t1, browser1] = [await Promise.all([first.mark(), second.mark()]), chromiumCpuMs()];
    const done = [t1[0].records - t0[0].records, t1[1].records - t0[1].records] as const;
    if (Math.min(...done) < records * MIN_SHARE) return undefined;
    // µs of CPU per record is ms per 1,000 records; GC is counted in ms.
    const perRecord = (i: 0 | 1, used: (m: (typeof t0)[number]) => number) => (used(t1[i]) - used(t0[i])) / done[i];
    const cpu = [perRecord(0, (m) => m.cpuMicros), perRecord(1, (m) => m.cpuMicros)] as const;
    const gc = [perRecord(0, (m) => m.gcMs * 1000), perRecord(1, (m) => m.gcMs * 1000)] as const;
    const reading: PairReading = { throughputCost: 1 - done[1] / done[0], cpuCost: cpu[1] / cpu[0] - 1, cpuPer1000: [round(cpu[0], 2), round(cpu[1], 2)], gcPer1000: [round(gc[0], 2), round(gc[1], 2)] };
    return page ? { ...reading, browserPer1000: round(((browser1 - browser0) / done[1]) * 1000, 2) } : reading;
  } catch (e) {
    threw = true;
    throw e;
  } finally {
    stream?.destroy();
    // Both pollers stop whatever the page's close does (a poller left running drains beside the next
    // pairs); a close that failed is the pair's error once they have, unless the pair failed first.
    const closed = page ? await page.close().then(() => ({ ok: true as const }), (error: unknown) => ({ ok: false as const, error })) : { ok: true as const };
    await Promise.all([first.stop(), second.stop()]);
    if (!closed.ok && !threw) throw closed.error;
  }
}

/**
 * What a page asks of the poller, without the page: the newest invocations once, then the live
 * stream, read to its end (resolves once the stream has answered).
 */
export async function readLive(consoleUrl: string): Promise<ClientRequest> {
  await fetch(new URL('api/invocations?limit=200', consoleUrl)).then((r) => r.arrayBuffer());
  return new Promise((resolve, reject) => {
    const req = get(new URL('api/live', consoleUrl), (res) => {
      if (res.statusCode !== 200) return reject(new Error(`bench: the console's live stream answered ${res.statusCode}`));
      res.on('data', () => undefined);
      res.on('error', () => undefined); // destroyed at the pair's end
      resolve(req);
    });
    req.on('error', reject);
  });
}

/**
 * CPU time (ms) the Chromium processes under this one (the browser it launched: its zygotes,
 * renderers, GPU and utility processes) have used so far, from /proc (Linux). Another Chromium on
 * the machine (a desktop browser, another test's) is not this bench's, and is left out.
 */
export function chromiumCpuMs(root = process.pid): number {
  let total = 0;
  for (const ms of chromiumCpuByType(root).values()) total += ms;
  return total;
}

/** The same, per process type (`--type=renderer`, `gpu-process`…; the browser process has none: `browser`). */
export function chromiumCpuByType(root = process.pid): Map<string, number> {
  const byType = new Map<string, number>();
  for (const p of chromiumProcesses(root)) byType.set(p.type, (byType.get(p.type) ?? 0) + p.cpuMs);
  return byType;
}

/** The Chromium processes below `root` (the bench's own browser, its renderers among them), each with its type and the CPU (ms) it used so far. */
export function chromiumProcesses(root = process.pid): Array<{ pid: number; type: string; cpuMs: number }> {
  const tick = 1000 / 100; // USER_HZ
  const procs = new Map<number, { ppid: number; chromium: boolean; cpuMs: number }>();
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      procs.set(Number(pid), { ppid: Number(fields[1]), chromium: name.startsWith('chrom'), cpuMs: (Number(fields[11]) + Number(fields[12])) * tick }); // utime, stime
    } catch {
      // gone meanwhile
    }
  }
  const under = (pid: number): boolean => {
    for (let p = procs.get(pid)?.ppid, hops = 0; p !== undefined && p > 0 && hops < 64; p = procs.get(p)?.ppid, hops++) if (p === root) return true;
    return false;
  };
  const found: Array<{ pid: number; type: string; cpuMs: number }> = [];
  for (const [pid, p] of procs) {
    if (!p.chromium || !under(pid)) continue;
    let type = 'browser';
    try {
      type = /--type=([\w-]+)/.exec(readFileSync(`/proc/${pid}/cmdline`, 'utf8'))?.[1] ?? 'browser';
    } catch {
      // gone meanwhile: counted as the browser's
    }
    found.push({ pid, type, cpuMs: p.cpuMs });
  }
  return found;
}

const pct = (x: number) => `${x >= 0 ? '+' : ''}${(x * 100).toFixed(1)}%`;
