/**
 * A queue trigger in the console (Chromium against a poller on the real broker): its card says it
 * is a share group's member, and each partition shows the group's backlog as the broker counts it,
 * what this poller acquired and how it acknowledged them, until the backlog is 0 and every record
 * is accepted. Every assertion reads the page.
 */
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { failurePolicy, startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, produce, uniqueName } from '../support/kafka.ts';

const CHROMIUM = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';
const topic = uniqueName('console-queue');
const failed = uniqueName('console-queue-failed');
let browser: Browser;
let harness: Harness | undefined;

beforeAll(async () => {
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});
afterAll(async () => {
  await browser?.close();
  await harness?.stop();
  await deleteTopic(topic);
  await deleteTopic(failed);
});

it('shows the share group\'s backlog per partition, and what this poller acquired and accepted, falling to 0', async () => {
  await createTopic(topic, 2);
  await createTopic(failed, 1);
  await produce(topic, Array.from({ length: 30 }, (_, i) => ({ value: `v${i}`, partition: i % 2 })));
  // One invocation of 5 records at a time, a second each: the backlog takes 6 s or more to drain, past the second reading (every 5 s).
  harness = await startRecorder({
    topic, consumptionMode: 'queue', batchSize: 5, concurrency: 1, env: { SLEEP_MS: '1000' },
    failure: failurePolicy({ onFailure: { kind: 'kafka', uri: `kafka://${failed}`, topic: failed } }), httpPort: 0, console: true,
  });
  const page = await browser.newPage();
  await page.goto(harness.consoleUrl!);
  const card = page.getByTestId('trigger-recorder');
  await expect.poll(() => card.getByTestId('consumption-mode').textContent(), { timeout: 30_000 }).toBe('queue (share group)');
  const row = (p: number) => card.getByTestId(`partition-recorder-${p}`);
  const backlog = async () => Promise.all([0, 1].map(async (p) => Number((await row(p).getByTestId('lag').textContent())?.replace(/,/g, ''))));
  const seen: number[] = [];
  await expect.poll(async () => {
    const b = await backlog();
    seen.push(b[0]! + b[1]!);
    return b;
  }, { timeout: 60_000, interval: 250 }).toEqual([0, 0]);
  expect(Math.max(...seen)).toBeGreaterThan(0); // the page showed records waiting before it showed none
  const accepted = async () => (await Promise.all([0, 1].map(async (p) => Number((await row(p).getByTestId('acknowledged').textContent())!.split('/')[0]!.trim())))).reduce((a, b) => a + b, 0);
  await expect.poll(accepted, { timeout: 15_000 }).toBe(30);
  const acquired = (await Promise.all([0, 1].map(async (p) => (await row(p).getByTestId('acquired').textContent())!))).join(' ');
  console.log(`[console-queue] backlog seen ${JSON.stringify(seen.slice(0, 12))}…; acquired (redelivered) per partition: ${acquired}`);
  expect(acquired).toBe('15 (0) 15 (0)');
}, 150_000);
