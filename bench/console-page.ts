/**
 * `node --import tsx bench/console-page.ts [invocations a second] [route] [seconds] [pages]`: what an
 * open console page costs Chromium at a given pace of invocations of 1,000 records, with no broker
 * and no poller drain beside it to share the cores with (the console scenario's pairs judge the cost
 * to a poller; this isolates the page's part, steady enough to compare two builds of the page:
 * `npm run build` between them). Each page opens on the route (default `#/invocations`), waits until
 * it is live and 3 s more, then Chromium's CPU per process type and its main thread's time (Chromium's
 * performance counters) are read over the seconds given; it prints each page's reading and the median.
 * Needs Chromium (SLUICE_CHROMIUM or Debian's /usr/bin/chromium).
 */
import { chromium } from 'playwright-core';
import { pacedConsole } from './lib/paced-console.ts';
import { median } from './lib/stats.ts';
import { chromiumCpuByType } from './scenarios/console-pairs.ts';
import { CHROMIUM } from './scenarios/console.ts';

const perSecond = Number(process.argv[2] ?? 200);
const route = process.argv[3] ?? '#/invocations';
const seconds = Number(process.argv[4] ?? 15);
const pages = Number(process.argv[5] ?? 3);
const COUNTERS = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'];

const served = await pacedConsole(perSecond, 1000);
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
const totals: number[] = [];
try {
  for (let p = 0; p < pages; p++) {
    const page = await browser.newPage();
    await page.goto(`${served.url}${route}`);
    await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Performance.enable');
    const counters = async () => new Map((await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]));
    const [from, countedFrom] = [chromiumCpuByType(), await counters()];
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    const [to, countedTo] = [chromiumCpuByType(), await counters()];
    const delta = (k: string) => (countedTo.get(k) ?? 0) - (countedFrom.get(k) ?? 0);
    const used = [...to].map(([type, ms]) => [type, (ms - (from.get(type) ?? 0)) / seconds] as const).filter(([, ms]) => ms > 0);
    const total = used.reduce((n, [, ms]) => n + ms, 0);
    totals.push(total);
    console.log(
      `page ${p + 1}: Chromium ${total.toFixed(1)} ms of CPU a second (${used.map(([type, ms]) => `${type} ${ms.toFixed(1)}`).join(', ')}); ` +
        `its main thread, ms a second: ${COUNTERS.map((k) => `${k.replace('Duration', '')} ${((delta(k) * 1000) / seconds).toFixed(1)}`).join(', ')}; ` +
        `layouts ${delta('LayoutCount')}, nodes ${countedTo.get('Nodes')}`,
    );
    await page.close();
  }
  console.log(`${route} at ${perSecond} invocations a second: Chromium's median ${median(totals).toFixed(1)} ms of CPU a second over ${pages} pages of ${seconds} s`);
} finally {
  await browser.close();
  await served.close();
}
