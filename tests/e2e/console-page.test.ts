/**
 * The built console page (dist/console, `npm run build`) in Chromium against the console's own
 * routes over a real InvocationHistory, with no poller: the page's behaviour under more
 * invocations than a test through the broker makes quickly.
 */
import { expect, it } from 'vitest';
import { InvocationHistory } from '../../framework/console/history.ts';
import type { KafkaRecord } from '../../framework/event/record.ts';
import { servedPage } from '../support/console-page.ts';

// Every invocation listed with a page open: these tests are of the page's drawing, not of the rate it lists at (history.test.ts).
const history = new InvocationHistory({ listedPerSecond: 1_000 });
const served = servedPage(history, 'page test');
let offset = 0;

function run(key: string, functionName = 'f'): void {
  const record: KafkaRecord = { topic: 't', partition: 0, offset: offset++, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from(key), value: Buffer.from('v'), headers: [] };
  const e = history.start({ functionName, records: [record], source: { bootstrapServers: 'b:9092' }, requestId: `r${record.offset}` });
  history.end(e, { ok: true, durationMs: 1 });
}

it('a focused row whose invocation falls off the drawn rows lets go of the focus, so Enter opens nothing it did not show', async () => {
  for (let i = 0; i < 3; i++) run(`first-${i}`);
  const page = await served.browser.newPage();
  await page.goto(`${served.url}#/invocations`);
  // Live first: with no page open the history lists only the first 10 a second of a function (the 3 rows come from the first list, before the stream opens).
  await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
  const rows = page.getByTestId('invocation-row');
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(3);
  const focusedId = await rows.first().getAttribute('data-id');
  await rows.first().focus();
  for (let i = 0; i < 150; i++) run(`later-${i}`); // the focused one is now the 151st: past the rows drawn (what fits the window, and ten)
  await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain('later-149');
  expect(await page.locator(`tr[data-id="${focusedId}"]`).count()).toBe(0);
  expect(await page.evaluate('document.activeElement.tagName')).not.toBe('TR');
  await page.keyboard.press('Enter');
  expect(await page.evaluate('location.hash')).toBe('#/invocations');
  await page.close();
}, 60_000);

it('draws the rows that fill the window and ten more, more as the reader scrolls near the end, and 50 more on "show more"', async () => {
  const page = await served.browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${served.url}#/invocations?function=rows`);
  // Live first: with no page open the history lists only the first 10 a second of a function.
  await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
  for (let i = 0; i < 200; i++) run(`many-${i}`, 'rows');
  const rows = page.getByTestId('invocation-row');
  await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain('many-199');
  const drawn = await rows.count();
  expect(drawn).toBe(Math.ceil(720 / 30) + 10);
  const last = await rows.last().boundingBox();
  expect(last!.y).toBeGreaterThan(720); // the window is full, and rows wait below it
  await page.evaluate('scrollTo(0, document.documentElement.scrollHeight)');
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(drawn + 50);
  await expect.poll(() => rows.last().textContent()).toContain(`many-${199 - drawn - 49}`);
  // "Show more" clicked where the reader is, without scrolling to it: a click that scrolls the button
  // into view comes near the end, where the scroll itself draws 50 more and moves the button from
  // under the click (the landing CI of 4a531d8: it ran away until all 200 were drawn).
  await page.evaluate('scrollTo(0, 0)');
  await page.getByTestId('invocations-more').dispatchEvent('click');
  await expect.poll(() => rows.count(), { timeout: 15_000 }).toBe(drawn + 100);
  await expect.poll(() => rows.last().textContent()).toContain(`many-${199 - drawn - 99}`);
  await page.close();
}, 60_000);

it('a window made taller than the rows drawn draws more at once, so its end can be reached by scrolling or ↓ from the last row', async () => {
  const page = await served.browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${served.url}#/invocations?function=tall`);
  await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
  for (let i = 0; i < 200; i++) run(`tall-${i}`, 'tall');
  const rows = page.getByTestId('invocation-row');
  await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain('tall-199');
  expect(await rows.count()).toBe(Math.ceil(720 / 30) + 10);
  await page.setViewportSize({ width: 1280, height: 2400 }); // the 34 rows end inside the window: there is nothing to scroll
  // Rows enough to reach past the window's end again, so a scroll (or the focus moving down) can come near it.
  await expect.poll(() => page.evaluate('document.documentElement.scrollHeight - innerHeight'), { timeout: 5_000 }).toBeGreaterThan(200);
  const drawn = await rows.count();
  const last = rows.nth(drawn - 1);
  const lastId = await last.getAttribute('data-id');
  await last.focus(); // scrolled to: near the page's end, more rows are drawn
  await expect.poll(() => rows.count(), { timeout: 5_000 }).toBeGreaterThan(drawn);
  await page.keyboard.press('ArrowDown');
  await expect.poll(() => page.evaluate('document.activeElement.dataset.id')).not.toBe(lastId);
  expect(await page.evaluate('document.activeElement.dataset.testid')).toBe('invocation-row');
  await page.close();
}, 60_000);

it('rows grown by scrolling are given back when the filters change: the new list draws what fills the window again', async () => {
  const page = await served.browser.newPage({ viewport: { width: 1280, height: 720 } });
  await page.goto(`${served.url}#/invocations?function=refilter`);
  await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
  for (let i = 0; i < 200; i++) run(`refilter-${i}`, 'refilter');
  const rows = page.getByTestId('invocation-row');
  await expect.poll(() => rows.first().textContent(), { timeout: 15_000 }).toContain('refilter-199');
  const first = Math.ceil(720 / 30) + 10;
  expect(await rows.count()).toBe(first);
  for (let grown = first + 50; grown <= first + 100; grown += 50) {
    await page.evaluate('scrollTo(0, document.documentElement.scrollHeight)');
    await expect.poll(() => rows.count(), { timeout: 5_000 }).toBe(grown);
  }
  await page.evaluate('scrollTo(0, 0)'); // back up to the filters
  await page.getByTestId('filter-outcome').selectOption('ok'); // outcome: every row still matches
  await expect.poll(() => page.evaluate('location.hash')).toContain('outcome=ok');
  await expect.poll(() => rows.count(), { timeout: 5_000 }).toBe(first);
  await page.close();
}, 60_000);

it('a tab hidden for a while closes its stream, so the poller serves no page; shown again, it catches up', async () => {
  const page = await served.browser.newPage();
  await page.clock.install(); // the page's own timers: the 10 s a tab stays hidden before its stream closes
  await page.goto(`${served.url}#/invocations`);
  await page.getByTestId('live-status').filter({ hasText: 'live' }).waitFor();
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(1);
  const setVisibility = (state: 'hidden' | 'visible') =>
    page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: '${state}', configurable: true }); document.dispatchEvent(new Event('visibilitychange'))`);
  await setVisibility('hidden');
  await page.clock.runFor(5_000); // a quick switch of tabs keeps the stream
  expect(served.streams).toBe(1);
  await page.clock.runFor(6_000);
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(0);
  run('ran-while-hidden', 'g'); // a function of its own: f ran past the 10 a second listed with no page open, just before
  await setVisibility('visible');
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(1);
  await expect.poll(() => page.getByTestId('invocation-row').first().textContent(), { timeout: 15_000 }).toContain('ran-while-hidden');
  await page.close();
}, 60_000);

it('a tab opened in the background, hidden from its load, closes its stream too', async () => {
  const page = await served.browser.newPage();
  await page.addInitScript(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true })`);
  await page.clock.install();
  await page.goto(`${served.url}#/invocations`);
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(1);
  await page.clock.runFor(11_000);
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(0);
  await page.close();
}, 60_000);

it('a row seen running while the tab was away shows how it ended, though 200 newer invocations came meanwhile', async () => {
  const record: KafkaRecord = { topic: 't', partition: 0, offset: offset++, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from('long-one'), value: Buffer.from('v'), headers: [] };
  const long = history.start({ functionName: 'slow', records: [record], source: { bootstrapServers: 'b:9092' }, requestId: 'long-one' });
  const page = await served.browser.newPage();
  await page.clock.install();
  await page.goto(`${served.url}#/invocations?function=slow`);
  const row = page.locator(`tr[data-id="${long.id}"]`);
  await expect.poll(() => row.getAttribute('data-outcome'), { timeout: 15_000 }).toBe('running');
  await page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true }); document.dispatchEvent(new Event('visibilitychange'))`);
  await page.clock.runFor(11_000);
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(0);
  history.end(long, { ok: true, durationMs: 5 });
  for (let i = 0; i < 200; i++) run(`busy-${i}`); // another function, busy meanwhile
  await page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true }); document.dispatchEvent(new Event('visibilitychange'))`);
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(1);
  await expect.poll(async () => { await page.clock.runFor(1_000); return row.getAttribute('data-outcome'); }, { timeout: 15_000 }).toBe('ok');
  await page.close();
}, 60_000);

it('a row seen running in a tab hidden before its stream first opened shows how it ended once shown', async () => {
  const record: KafkaRecord = { topic: 't', partition: 0, offset: offset++, timestamp: 0, timestampType: 'CREATE_TIME', key: Buffer.from('early-one'), value: Buffer.from('v'), headers: [] };
  const early = history.start({ functionName: 'early', records: [record], source: { bootstrapServers: 'b:9092' }, requestId: 'early-one' });
  let release!: () => void;
  served.holdLive = new Promise((done) => (release = done)); // the first stream has not opened when the tab is hidden
  const page = await served.browser.newPage();
  try {
    await page.clock.install();
    await page.goto(`${served.url}#/invocations?function=early`);
    const row = page.locator(`tr[data-id="${early.id}"]`);
    await expect.poll(() => row.getAttribute('data-outcome'), { timeout: 15_000 }).toBe('running');
    expect(await page.getByTestId('live-status').textContent()).not.toContain('live');
    await page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true }); document.dispatchEvent(new Event('visibilitychange'))`);
    await page.clock.runFor(11_000);
    await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(0);
    served.holdLive = undefined;
    release();
    history.end(early, { ok: true, durationMs: 5 });
    await page.evaluate(`Object.defineProperty(document, 'visibilityState', { value: 'visible', configurable: true }); document.dispatchEvent(new Event('visibilitychange'))`);
    await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(1);
    await expect.poll(async () => { await page.clock.runFor(1_000); return row.getAttribute('data-outcome'); }, { timeout: 15_000 }).toBe('ok');
  } finally {
    served.holdLive = undefined;
    release();
    await page.close();
  }
}, 60_000);

it('says how many successes ran unlisted while no page was open, for the function filtered on', async () => {
  await expect.poll(() => served.streams, { timeout: 15_000 }).toBe(0); // the last test's page gone: no page open
  const before = history.unlistedCounts().quiet ?? 0;
  for (let i = 0; i < 30; i++) run(`quiet-${i}`, 'quiet'); // no page open: past the first 10 a second, not listed
  const unlisted = history.unlistedCounts().quiet!;
  expect(unlisted - before).toBeGreaterThanOrEqual(10); // 30 in at most two seconds: at most 20 listed
  const page = await served.browser.newPage();
  await page.goto(`${served.url}#/invocations?function=quiet`);
  await expect.poll(() => page.getByTestId('invocations-unlisted').textContent(), { timeout: 15_000 }).toContain(`${unlisted} of quiet`);
  await expect.poll(() => page.getByTestId('invocation-row').count(), { timeout: 15_000 }).toBe(30 - (unlisted - before));
  await page.goto(`${served.url}#/invocations?function=slow`);
  await expect.poll(() => page.getByTestId('invocations-unlisted').count(), { timeout: 15_000 }).toBe(0);
  await page.close();
}, 60_000);

