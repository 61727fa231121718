/**
 * `node --import tsx bench/console-profile.ts [records] [SIDE[,SIDE]]`: where the poller's extra CPU goes
 * with the console (the console scenario's firehose: batchSize 100, a line per invocation). A SIDE is
 * no-console (the health server alone), no-page (the console on, no page), stream (its live stream
 * read by this process, no browser) or page-open (Chromium on the live invocations view); two sides
 * (no-page,page-open unless named) drain the backlog in turn in this process, each with a V8 CPU
 * profile from a quarter of it done to the end, and it prints the
 * functions whose self time grew the most from the first to the second (with one side named, that
 * side's busiest functions). With a page, Chromium's CPU over the window per process type (renderer,
 * gpu-process, the browser). BENCH_CONSOLE_BATCH_SIZE=1000 runs the throughput scenario's shape
 * instead; BENCH_CONSOLE_ROUTE opens another view than `#/invocations` (`#/send`: a live page that
 * draws no list). The .cpuprofile files stay in .sluice/console-profile/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { chromium } from 'playwright-core';
import { Instrumentation } from '../framework/observe/events.ts';
import { REPO_ROOT, startBenchBroker, stopBenchBroker } from './lib/broker.ts';
import { summarize } from './lib/cpu-profile.ts';
import { createTopic, kafkaClient, preload, uniqueName } from './lib/kafka.ts';
import { startSluice } from './lib/sluice.ts';
import { chromiumCpuByType as chromiumByType, readLive } from './scenarios/console-pairs.ts';
import { CHROMIUM } from './scenarios/console.ts';

const records = Number(process.argv[2] ?? 1_000_000);
/** BENCH_CONSOLE_BATCH_SIZE: 100 (the firehose, a line an invocation) unless set (1000: the throughput scenario's shape). */
const BATCH_SIZE = Number(process.env.BENCH_CONSOLE_BATCH_SIZE ?? 100);
const SIDES = ['no-page', 'page-open', 'no-console', 'stream'] as const;
/** One side (its busiest functions), or two in turn (what grew from the first to the second). */
const chosen = (process.argv[3] ?? 'no-page,page-open').split(',') as Array<(typeof SIDES)[number]>;
for (const side of chosen) if (!SIDES.includes(side)) throw new Error(`a side is no-page, stream, page-open or no-console (the health server alone), not ${side}`);
const only = chosen.length === 1 ? chosen[0] : undefined;
const dir = join(REPO_ROOT, '.sluice', 'console-profile');
/** BENCH_CONSOLE_TRACE=1: a Chromium trace of the window too, its top-level tasks' CPU summed per process and thread. */
const TRACE = process.env.BENCH_CONSOLE_TRACE === '1';
/** BENCH_CONSOLE_PAGE_PROFILE=0: no V8 profile of the page's script (its sampling costs the renderer CPU of its own). */
const PAGE_PROFILE = process.env.BENCH_CONSOLE_PAGE_PROFILE !== '0';
const log = (line: string) => console.error(`[console-profile] ${line}`);

const broker = await startBenchBroker(log);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
const session = new Session();
session.connect();
await session.post('Profiler.enable');
mkdirSync(dir, { recursive: true });
try {
  const kafka = kafkaClient([broker.bootstrap]);
  const topic = uniqueName('console-profile');
  await createTopic(kafka, topic, 6);
  await preload(kafka, topic, { records, partitions: 6, valueBytes: 256 });
  const files: Record<string, string> = {};
  for (const side of chosen) {
    let done = 0;
    let started = false;
    let finished!: () => void;
    const all = new Promise<void>((resolve) => (finished = resolve));
    const events = new Instrumentation();
    const sluice = await startSluice({ name: 'bench-console', brokers: [broker.bootstrap], topic, groupId: uniqueName('profile'), batchSize: BATCH_SIZE, maximumBatchingWindowMs: 0, concurrency: 4, env: BATCH_SIZE === 100 ? { BENCH_LOG: '1' } : {}, ...(side === 'no-console' ? { http: true } : { console: true }) }, events);
    const at = { t: 0, cpu: process.cpuUsage() };
    events.on('poller.chunk_end', (e) => {
      if (!e.ok) return;
      done += e.count;
      if (!started && done >= records / 4) {
        started = true;
        at.t = performance.now();
        at.cpu = process.cpuUsage();
        void session.post('Profiler.start');
      }
      if (done >= records) finished();
    });
    const stream = side === 'stream' ? await readLive(sluice.consoleUrl!) : undefined;
    const page = side === 'page-open' ? await browser.newPage() : undefined;
    if (page) {
      await page.goto(`${sluice.consoleUrl}${process.env.BENCH_CONSOLE_ROUTE ?? '#/invocations'}`);
      await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
      if (started) throw new Error('the page was live only after a quarter of the backlog was done: give more records');
    }
    // Where the page's own time goes (Chromium's counters, over the same window as the profile).
    const cdp = page ? await page.context().newCDPSession(page) : undefined;
    await cdp?.send('Performance.enable');
    const metrics = async () => Object.fromEntries(((await cdp?.send('Performance.getMetrics'))?.metrics ?? []).map((m) => [m.name, m.value]));
    let pageFrom: Record<string, number> = {};
    let chromiumFrom = new Map<string, number>();
    if (PAGE_PROFILE) await cdp?.send('Profiler.enable');
    events.on('poller.chunk_end', () => {
      if (started && cdp && Object.keys(pageFrom).length === 0) {
        pageFrom = { started: 1 };
        chromiumFrom = chromiumByType();
        void metrics().then((m) => (pageFrom = m));
        if (PAGE_PROFILE) void cdp.send('Profiler.start');
        if (TRACE) void browser.startTracing(page, { categories: ['toplevel', 'v8', 'cc', 'viz', 'gpu', 'blink'] });
      }
    });
    await all;
    const { profile } = await session.post('Profiler.stop');
    const cpu = process.cpuUsage(at.cpu);
    const file = join(dir, `${side}.cpuprofile`);
    writeFileSync(file, JSON.stringify(profile));
    files[side] = file;
    log(`${side}: ${Math.round(((records * 0.75) / (performance.now() - at.t)) * 1000)} records/s, ${(((cpu.user + cpu.system) / 1000 / (records * 0.75)) * 1000).toFixed(2)} ms CPU per 1,000 records`);
    if (cdp) {
      if (PAGE_PROFILE) {
        const pageFile = join(dir, 'page.cpuprofile');
        writeFileSync(pageFile, JSON.stringify((await cdp.send('Profiler.stop')).profile));
        const inPage = summarize(pageFile, 15);
        log(`the page's script, busy ${Math.round(inPage.busyMs)} ms of ${Math.round(inPage.totalMs)}:`);
        for (const f of inPage.top) log(`${f.ms.toFixed(0).padStart(6)} ms  ${f.fn}`);
      }
      const to = await metrics();
      const spent = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'].map((k) => `${k} ${Math.round(((to[k] ?? 0) - (pageFrom[k] ?? 0)) * 1000)} ms`);
      const perSecond = (((to.TaskDuration ?? 0) - (pageFrom.TaskDuration ?? 0)) * 1000) / ((performance.now() - at.t) / 1000);
      const chromiumTo = chromiumByType();
      if (TRACE) {
        const trace = join(dir, 'page.trace.json');
        writeFileSync(trace, await browser.stopTracing());
        log(`Chromium's tasks by thread (the trace's top-level tasks, CPU): ${tasksByThread(trace)}`);
      }
      log(`Chromium's CPU over the window, by process: ${[...chromiumTo].map(([type, ms]) => `${type} ${Math.round(ms - (chromiumFrom.get(type) ?? 0))} ms`).join(', ')}`);
      log(`the page over the window: ${spent.join(', ')}; layouts ${(to.LayoutCount ?? 0) - (pageFrom.LayoutCount ?? 0)}, nodes ${to.Nodes}; ${perSecond.toFixed(0)} ms of page CPU a second`);
    }
    await page?.close();
    stream?.destroy();
    await sluice.stop();
  }
  if (only) {
    const one = summarize(files[only]!, 30);
    log(`busy ${Math.round(one.busyMs)} ms of ${Math.round(one.totalMs)}`);
    for (const f of one.top) log(`${f.ms.toFixed(0).padStart(6)} ms ${(f.share * 100).toFixed(1).padStart(5)}%  ${f.fn}`);
  } else {
    const a = summarize(files[chosen[0]!]!, 400);
    const b = summarize(files[chosen[1]!]!, 400);
    const before = new Map(a.top.map((f) => [f.fn, f.ms]));
    const grown = b.top.map((f) => ({ fn: f.fn, ms: f.ms, grew: f.ms - (before.get(f.fn) ?? 0) })).sort((x, y) => y.grew - x.grew).slice(0, 25);
    log(`busy: ${chosen[0]} ${Math.round(a.busyMs)} ms of ${Math.round(a.totalMs)}, ${chosen[1]} ${Math.round(b.busyMs)} ms of ${Math.round(b.totalMs)}`);
    for (const g of grown) log(`+${g.grew.toFixed(0).padStart(5)} ms (${g.ms.toFixed(0)} ms in ${chosen[1]})  ${g.fn}`);
  }
} finally {
  session.disconnect();
  await browser.close();
  await stopBenchBroker(log);
}

/** The CPU of a trace's top-level tasks (RunTask), summed per process and thread, busiest first. */
function tasksByThread(file: string): string {
  const events = (JSON.parse(readFileSync(file, 'utf8')) as { traceEvents: Array<{ name: string; ph: string; pid: number; tid: number; tdur?: number; dur?: number; args?: { name?: string } }> }).traceEvents;
  const names = new Map<string, string>();
  for (const e of events) if (e.ph === 'M' && (e.name === 'thread_name' || e.name === 'process_name')) names.set(e.name === 'process_name' ? `${e.pid}` : `${e.pid}:${e.tid}`, e.args?.name ?? '?');
  const busy = new Map<string, number>();
  for (const e of events) {
    if (e.ph !== 'X' || !/^(ThreadControllerImpl::RunTask|RunTask|ThreadPool_RunTask)$/.test(e.name)) continue;
    const key = `${names.get(`${e.pid}`) ?? e.pid}/${names.get(`${e.pid}:${e.tid}`) ?? e.tid}`;
    busy.set(key, (busy.get(key) ?? 0) + (e.tdur ?? e.dur ?? 0) / 1000);
  }
  return [...busy].sort((a, b) => b[1] - a[1]).slice(0, 14).map(([k, ms]) => `${k} ${Math.round(ms)} ms`).join(', ');
}
