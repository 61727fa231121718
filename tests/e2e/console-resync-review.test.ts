/**
 * Review of 081e883 (the live stream's `resync`): the built console page (dist/console) in Chromium
 * against the console's own routes over a real InvocationHistory with its default limits, no poller,
 * as console-page-review.test.ts does. The page's EventSource is wrapped (an init script) only to
 * see when a message arrived: the app's own listeners are untouched.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { InvocationHistory, summaryOf, type Invocation } from '../../framework/console/history.ts';
import type { KafkaRecord } from '../../framework/event/record.ts';
import { servedPage } from '../support/console-page.ts';

const history = new InvocationHistory();
const served = servedPage(history, 'review');
let offset = 0;

function start(functionName: string): Invocation {
  const record: KafkaRecord = { topic: 't', partition: 0, offset: offset++, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from(`k${offset}`), value: Buffer.from('v'), headers: [] };
  return history.start({ functionName, records: [record], source: { bootstrapServers: 'b:9092' }, requestId: `r${record.offset}` });
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

const SEE_MESSAGES = `(() => {
  const Original = window.EventSource;
  window.__sse = [];
  window.EventSource = class extends Original {
    constructor(u, o) {
      super(u, o);
      for (const type of ['invocations', 'resync']) super.addEventListener(type, (e) => window.__sse.push({ type, data: e.data, at: Date.now() }));
    }
  };
})();`;

async function openPage(hash: string): Promise<Page> {
  const page = await served.browser.newPage();
  await page.addInitScript(SEE_MESSAGES);
  await page.goto(`${served.url}${hash}`);
  await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
  return page;
}

it('a row queued from a message before a resync is not left running after the refetch (the queued live snapshot is applied after the fetched end, and refreshRunning never asks for it)', async () => {
  const page = await openPage('#/invocations?function=x-fn');
  // 60 changes in one message: the page then applies its next batch a second after its first event (paceMs 1000).
  for (let f = 0; f < 6; f++) for (let i = 0; i < 10; i++) start(`warm-${f}`);
  await page.waitForFunction(() => (globalThis as any).__sse.some((e: any) => e.type === 'invocations' && JSON.parse(e.data).length === 60), undefined, { timeout: 10_000, polling: 10 });
  await sleep(1_500); // applied (250 ms), and the server's firehose pause (1 s) over
  // x starts: the next message tells the page it runs; the page queues it for a second.
  const x = start('x-fn');
  await page.waitForFunction((id) => (globalThis as any).__sse.some((e: any) => e.type === 'invocations' && e.data.includes(`"id":"${id}"`)), x.id, { timeout: 10_000, polling: 5 });
  // Right after that message: x ends, then 205 others start (5 functions, 41 each, within their 50 a second).
  // Its end is the oldest of 206 changes: dropped from the next message, which says `resync`.
  const askedBefore = served.requests.length; // what the page asks from here on follows the resync
  history.end(x, { ok: true, durationMs: 3 });
  for (let f = 0; f < 5; f++) for (let i = 0; i < 41; i++) start(`busy-${f}`);
  await page.waitForFunction(() => (globalThis as any).__sse.some((e: any) => e.type === 'resync'), undefined, { timeout: 10_000 });
  // The server holds x as ended.
  expect(history.get(x.id)?.outcome).toBe('ok');
  expect(summaryOf(history.get(x.id)!).outcome).toBe('ok');
  // The page, open and visible, should show how x ended once the resync's fetches are done (when they are: not at a time taken here).
  const row = page.locator(`tr[data-id="${x.id}"]`);
  await expect.poll(() => row.getAttribute('data-outcome'), { timeout: 15_000 }).toBe('ok');
  // What the page asked after the resync: the newest 200 (x not among them), then what it asks besides.
  const asked = served.requests.slice(askedBefore).map((r) => r.path);
  expect(asked).toContain('/api/invocations?limit=200');
}, 60_000);

it('a page shows an invocation in flight whose start was among the changes a message dropped (the resync fetches only the newest 200, the dropped are the oldest)', async () => {
  const page = await openPage('#/invocations?function=y-fn');
  await sleep(1_500);
  // y starts, then 205 others start (5 functions, 41 each, within their 50 a second) before the next message:
  // y's start is the oldest of 206 changes, dropped; the message says `resync`.
  const y = start('y-fn');
  for (let f = 0; f < 5; f++) for (let i = 0; i < 41; i++) start(`busy2-${f}`);
  await page.waitForFunction(() => (globalThis as any).__sse.some((e: any) => e.type === 'resync'), undefined, { timeout: 10_000 });
  // y runs, listed by the server among its newest 206 (the page keeps 500).
  expect(history.list({ function: 'y-fn', outcome: 'running' }).map((e) => e.id)).toEqual([y.id]);
  expect(history.list({ limit: 500 }).findIndex((e) => e.id === y.id)).toBeLessThan(500);
  // The page, open on y's function, should show it running (once the resync's fetches are done, not at a time taken here).
  await expect.poll(() => page.locator(`tr[data-id="${y.id}"]`).count(), { timeout: 15_000 }).toBe(1);
}, 60_000);
