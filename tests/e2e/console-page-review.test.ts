/**
 * Review of d8682a1/01af0fd: the built console page (dist/console) in Chromium against the
 * console's own routes over a real InvocationHistory with its default limits (listedPerSecond 50),
 * no poller, as console-page.test.ts does.
 */
import { expect, it } from 'vitest';
import { InvocationHistory, type Invocation } from '../../framework/console/history.ts';
import type { KafkaRecord } from '../../framework/event/record.ts';
import { servedPage } from '../support/console-page.ts';

const history = new InvocationHistory(); // the defaults: 50 a second of a function listed with a page open
const served = servedPage(history, 'review');
let offset = 0;

function start(functionName: string): Invocation {
  const record: KafkaRecord = { topic: 't', partition: 0, offset: offset++, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from(`k${offset}`), value: Buffer.from('v'), headers: [] };
  return history.start({ functionName, records: [record], source: { bootstrapServers: 'b:9092' }, requestId: `r${record.offset}` });
}

it('an open, visible page shows how every invocation it saw running ended, though more than 200 listed ones changed between two messages', async () => {
  const page = await served.browser.newPage();
  await page.goto(`${served.url}#/invocations?outcome=running`);
  await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(1);
  const head = page.locator('.invocations-view .view-head p');
  // Five busy functions, each within its first 50 a second: 250 listed, the page is sent the newest 200
  // running and told to resync, and fetches those running: it shows all 250.
  const started = ['f1', 'f2', 'f3', 'f4', 'f5'].flatMap((fn) => Array.from({ length: 50 }, () => start(fn)));
  await expect.poll(() => head.textContent(), { timeout: 15_000 }).toMatch(/^250 of 250 shown/);
  // They end, the last started first (durations differ): every one ends, none is running on the server.
  for (const e of [...started].reverse()) history.end(e, { ok: true, durationMs: 1 });
  expect(history.list({ limit: 1000, outcome: 'running' })).toHaveLength(0);
  // The page, open and visible throughout, should show none running.
  await expect.poll(() => head.textContent(), { timeout: 10_000 }).toMatch(/^0 of/);
  await page.close();
}, 60_000);

it('a row the stream saw end is not turned back to running by the answer to its ids asked at the first open (fetched before it ended, read after)', async () => {
  const x = start('x-fn');
  let openLive!: () => void;
  served.holdLive = new Promise((done) => (openLive = done)); // the first stream opens late (CI-23's case)
  const page = await served.browser.newPage();
  try {
    // The answer to the ids asked for arrives late: read from the server at once, handed to the page later.
    let asked!: () => void;
    const idsAsked = new Promise<void>((done) => (asked = done));
    let handOver!: () => void;
    const handedOver = new Promise<void>((done) => (handOver = done));
    // (Asked for by id, or among those running, which the page also asks for at an open.)
    const delivered: Promise<void>[] = [];
    await page.route(/\/api\/invocations\?(ids=|outcome=running)/, (route) => {
      const answered = (async () => {
        const response = await route.fetch();
        asked();
        await handedOver;
        await route.fulfill({ response });
      })();
      delivered.push(answered);
      return answered;
    });
    await page.goto(`${served.url}#/invocations?function=x-fn`);
    const row = page.locator(`tr[data-id="${x.id}"]`);
    await expect.poll(() => row.getAttribute('data-outcome'), { timeout: 15_000 }).toBe('running');
    // 250 newer invocations (25 functions, the first 10 a second of each listed with no page open): x is not among the newest 200.
    for (let f = 0; f < 25; f++) for (let i = 0; i < 10; i++) { const e = start(`busy-${f}`); history.end(e, { ok: true, durationMs: 1 }); }
    served.holdLive = undefined;
    openLive(); // the stream opens: the list fetched again, x asked for by id (still running then)
    await idsAsked;
    history.end(x, { ok: true, durationMs: 5 }); // x ends: the open stream says so
    await expect.poll(() => row.getAttribute('data-outcome'), { timeout: 15_000 }).toBe('ok');
    handOver(); // the answer read before x ended reaches the page
    await Promise.all(delivered); // handed to the page (under load that can take a while): then its time to merge them
    await new Promise((done) => setTimeout(done, 2_000));
    expect(await row.getAttribute('data-outcome')).toBe('ok');
  } finally {
    served.holdLive = undefined;
    openLive();
    await page.close();
  }
}, 60_000);
