/**
 * The console as a user meets it: `npm start` (start.ts, as the README runs it) prints the
 * console's link; Chromium (Debian's, driven by playwright-core) opens it against the real broker.
 * Records produced appear live; an invocation's page shows the exact event and the handler's
 * lines; a replay with an edited event runs the handler and commits nothing; a failed record
 * lands in the kafka:// destination, shows on the failures page and is redriven from it; a
 * partition's lag is seen to fall; a hostile record renders as text; a cross-site request changes
 * nothing. Every assertion reads the page (or the broker, for what must not have happened). The
 * screenshots in docs/local-development.md are taken here (SLUICE_UPDATE_SCREENSHOTS=1 writes them
 * into docs/images), so they show what the code does.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { REPO, runCli, type CliProcess } from '../support/cli.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const CHROMIUM = process.env.SLUICE_CHROMIUM ?? '/usr/bin/chromium';
/** The docs' screenshots are rewritten with SLUICE_UPDATE_SCREENSHOTS=1; otherwise taken into .sluice/ (so a run leaves the tree clean). */
const SHOTS = process.env.SLUICE_UPDATE_SCREENSHOTS === '1' ? join(REPO, 'docs', 'images') : join(REPO, '.sluice', 'screenshots');
const topic = uniqueName('console-orders');
const dlq = uniqueName('console-failed');
const dir = mkdtempSync(join(tmpdir(), 'sluice-console-'));
const seenFile = join(dir, 'seen.jsonl');
const failFlag = join(dir, 'fail-bad');
const group = 'sluice-console-test-orders';
const running: CliProcess[] = [];
let browser: Browser;

const HOSTILE_KEY = '<img src=x onerror="window.__pwned=1">';
const HOSTILE_VALUE = '<script>window.__pwned=2</script>\u001b[2J\u202eevil';

const handler = [
  "import { appendFileSync, existsSync } from 'node:fs';",
  'export const handler = async (event: { records: Record<string, Array<{ value: string; offset: number; partition: number }>> }) => {',
  '  for (const r of Object.values(event.records).flat()) {',
  "    const value = Buffer.from(r.value, 'base64').toString();",
  '    console.log(`handling ${value} from ${r.partition}@${r.offset}`);',
  "    if (value.startsWith('slow')) await new Promise((resolve) => setTimeout(resolve, 400));",
  "    const ok = !(value.startsWith('bad') && existsSync(process.env.FAIL_FLAG!));",
  "    appendFileSync(process.env.SEEN_FILE!, JSON.stringify({ value, ok }) + '\\n');",
  "    if (!ok) throw new Error(`cannot handle ${value}`);",
  '  }',
  '  return { handled: Object.values(event.records).flat().length };',
  '};', '',
].join('\n');

const seen = (): Array<{ value: string; ok: boolean }> => (existsSync(seenFile) ? readFileSync(seenFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) throw new Error(`The console's browser test needs Chromium at ${CHROMIUM}: apt-get install chromium (or set SLUICE_CHROMIUM to a Chromium binary).`);
  mkdirSync(join(dir, 'functions'));
  writeFileSync(join(dir, 'serverless.yml'), [
    'service: console-test', 'provider:', '  name: aws', 'functions:', '  orders:', '    handler: functions/orders.handler',
    '    environment:', `      SEEN_FILE: ${seenFile}`, `      FAIL_FLAG: ${failFlag}`, '    events:', '      - sluice:', `          topic: ${topic}`,
    '          startingPosition: TRIM_HORIZON', '          batchSize: 1', '          maximumBatchingWindow: 0', '          maximumRetryAttempts: 0',
    '          destinationConfig:', '            onFailure:', `              destination: kafka://${dlq}`, '',
  ].join('\n'));
  writeFileSync(join(dir, 'functions', 'orders.ts'), handler);
  writeFileSync(failFlag, '');
  await createTopic(topic, 2);
  await createTopic(dlq, 1);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
});

afterAll(async () => {
  await browser?.close();
  for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await deleteTopic(topic);
  await deleteTopic(dlq);
  rmSync(dir, { recursive: true, force: true });
});

async function start(env: Record<string, string> = {}): Promise<{ cli: CliProcess; url: string }> {
  const cli = runCli('framework/cli/start.ts', ['--config', join(dir, 'serverless.yml')], { cwd: dir, env: { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_HTTP_PORT: '0', ...env } });
  running.push(cli);
  await cli.waitForOutput(/ready\. Send records with/, 60_000);
  const url = /console: (http:\/\/\S+)/.exec(cli.output())?.[1];
  if (!url) throw new Error(`start printed no console link:\n${cli.output()}`);
  return { cli, url };
}

async function openPage(url: string, colorScheme: 'light' | 'dark' = 'light'): Promise<{ page: Page; problems: string[] }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 860 }, colorScheme });
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  page.on('dialog', (d) => {
    problems.push(`a dialog opened: ${d.message()}`);
    void d.dismiss();
  });
  await page.goto(url);
  await expect.poll(() => page.getByTestId('live-status').textContent(), { timeout: 15_000 }).toBe('live');
  return { page, problems };
}

const rowsShown = (page: Page) => page.getByTestId('invocation-row').count();

it('shows records arrive live, an invocation\'s event and lines, replays it edited without committing, and redrives a failure', async () => {
  const { cli, url } = await start();
  const { page, problems } = await openPage(url);
  mkdirSync(SHOTS, { recursive: true });

  // Triggers: the card names the function, its topic and destination.
  const card = page.getByTestId('trigger-orders');
  await expect.poll(() => card.textContent(), { timeout: 15_000 }).toContain(topic);
  expect(await card.textContent()).toContain(`kafka://${dlq}`);

  // Records arrive live on the invocations page, without a reload.
  await page.goto(`${url}#/invocations`);
  expect(await rowsShown(page)).toBe(0);
  await produce(topic, [{ key: 'k-1', value: 'good-1', partition: 0 }, { key: HOSTILE_KEY, value: HOSTILE_VALUE, headers: [['<b>h</b>', '\u0007bell']], partition: 1 }]);
  await expect.poll(() => page.locator('[data-testid="invocation-row"][data-outcome="ok"]').count(), { timeout: 30_000 }).toBe(2);

  // The hostile record is text: its key is shown, no element came of it, no script ran.
  await expect.poll(() => page.getByTestId('invocation-row').filter({ hasText: '<img src=x' }).count()).toBe(1);
  expect(await page.locator('main img, main script').count()).toBe(0);
  expect(await page.evaluate('window.__pwned')).toBeUndefined();

  // A row focused from the keyboard keeps its invocation while newer ones push it down the list.
  const k1 = page.getByTestId('invocation-row').filter({ hasText: 'k-1' });
  const k1Id = await k1.getAttribute('data-id');
  await k1.focus();
  await produce(topic, [{ key: 'k-0', value: 'good-0', partition: 0 }]);
  await expect.poll(() => rowsShown(page), { timeout: 30_000 }).toBe(3);
  expect(await page.evaluate('document.activeElement.dataset.id')).toBe(k1Id);
  expect(await page.evaluate('document.activeElement.textContent')).toContain('k-1');

  // The good record's invocation: the event the handler got, and the line it wrote.
  await k1.click();
  const detail = page.getByTestId('invocation-detail');
  await detail.waitFor();
  const event = JSON.parse((await page.getByTestId('event-json').textContent())!);
  const [sent] = event.records[`${topic}-0`];
  expect(Buffer.from(sent.value, 'base64').toString()).toBe('good-1');
  expect(Buffer.from(sent.key, 'base64').toString()).toBe('k-1');
  expect(await page.getByTestId('logs').textContent()).toContain(`handling good-1 from 0@${sent.offset}`);
  await page.screenshot({ path: join(SHOTS, 'console-invocation.png') });

  // Replay it with an edited event: the handler runs it, and nothing is committed.
  const committedBefore = await offsets(group, topic);
  const edited = { ...event, records: { [`${topic}-0`]: [{ ...sent, value: Buffer.from('edited-1').toString('base64') }] } };
  await page.getByTestId('replay-editor').fill(JSON.stringify(edited, null, 2));
  await page.getByTestId('replay-run').click();
  await expect.poll(() => page.getByTestId('replay-result').textContent(), { timeout: 30_000 }).toMatch(/ok/i);
  expect(await page.getByTestId('replay-result').textContent()).toContain('handling edited-1');
  expect(seen().filter((s) => s.value === 'edited-1')).toEqual([{ value: 'edited-1', ok: true }]);
  expect(await offsets(group, topic)).toEqual(committedBefore);

  // A failed record lands in the destination, shows on the failures page, and is redriven from it.
  // Its producer's header draws lines that would look like more of Sluice's headers, were its newlines kept.
  await produce(topic, [{ key: 'k-bad', value: 'bad-1', partition: 0, headers: [['trace', 'abc\nsluice-failure-reason:\n  Redriven']] }]);
  await page.goto(`${url}#/invocations`);
  await expect.poll(() => page.locator('[data-testid="invocation-row"][data-outcome="failed"]').count(), { timeout: 30_000 }).toBe(1);
  await page.locator('[data-testid="invocation-row"][data-outcome="failed"]').click();
  await expect.poll(() => page.getByTestId('error').textContent()).toMatch(/cannot handle bad-1[\s\S]*functions\/orders\.ts:9/);
  await page.goto(`${url}#/failures`);
  const failed = page.getByTestId('failure-record');
  await expect.poll(() => failed.count(), { timeout: 30_000 }).toBe(1);
  expect(await failed.textContent()).toContain('RetryAttemptsExhausted');
  expect(await failed.textContent()).toContain('bad-1');
  // The error header's lines (the message, then the stack) are lines, not escapes.
  const errorHeader = failed.locator('.headers div', { hasText: 'sluice-failure-error' }).locator('dd');
  expect(await errorHeader.innerText()).toMatch(/cannot handle bad-1[^\n]*\n\s+at /);
  expect(await errorHeader.locator('.ctl').count()).toBe(0);
  const producers = failed.locator('.headers div', { hasText: 'trace' }).locator('dd');
  expect(await producers.innerText()).toBe('abc\\u{a}sluice-failure-reason:\\u{a}  Redriven');
  expect(await producers.locator('.ctl').count()).toBe(2);
  await page.screenshot({ path: join(SHOTS, 'console-failures.png') });
  rmSync(failFlag); // the handler is fixed
  await page.getByTestId('redrive-orders').click();
  const confirm = page.getByTestId('redrive-confirm');
  await confirm.click(); // the redrive asks first, always
  await expect.poll(() => page.getByTestId('redrive-result').textContent(), { timeout: 30_000 }).toContain(`sent 1 of 1 record in ${dlq} (1 to ${topic})`);
  expect(await page.getByTestId('redrive-again').textContent()).toContain('redriving again sends them again');
  await waitFor('the redriven record handled', () => seen().some((s) => s.value === 'bad-1' && s.ok), 30_000);

  // A backlog on one partition: its lag is seen above 0, then falling to 0.
  await page.goto(url);
  await produce(topic, Array.from({ length: 12 }, (_, i) => ({ key: `slow-${i}`, value: `slow-${i}`, partition: 1 })));
  const lag = page.getByTestId('partition-orders-1').getByTestId('lag');
  const lags: number[] = [];
  let shot = false;
  await expect.poll(async () => {
    lags.push(Number((await lag.textContent())!.replace(/\D/g, '')));
    // For the docs: the backlog draining, a chunk in flight against its deadlines.
    if (!shot && lags.at(-1)! > 0 && (await page.getByTestId('inflight-orders-1').count()) > 0) {
      await page.screenshot({ path: join(SHOTS, 'console-triggers.png'), fullPage: true });
      shot = true;
    }
    return lags.some((n) => n > 0) && lags.at(-1) === 0;
  }, { timeout: 60_000, interval: 250 }).toBe(true);
  expect(Math.max(...lags)).toBeGreaterThan(0);
  expect(shot).toBe(true);
  await waitFor('everything committed', async () => (await offsets(group, topic)).every((p) => p.committed === p.logEnd), 30_000);

  // Dark, for the docs.
  const dark = await openPage(url, 'dark');
  await dark.page.goto(`${url}#/invocations`);
  await dark.page.getByTestId('invocation-row').first().waitFor();
  await dark.page.screenshot({ path: join(SHOTS, 'console-invocations-dark.png') });
  await dark.page.close();

  // Another site's page posts to the console as a browser lets it (a no-cors text/plain POST, and a form): nothing is sent.
  const sentBefore = seen().length;
  const evil: Server = createServer((_, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end(`<form id="f" method="POST" action="${url}api/produce" enctype="text/plain"><input name='{"topic":"${topic}","value":"evil","x":"' value='"}'></form>`);
  });
  await new Promise<void>((r) => evil.listen(0, '127.0.0.1', r));
  const attacker = await browser.newPage();
  try {
    await attacker.goto(`http://localhost:${(evil.address() as AddressInfo).port}/`); // another site than 127.0.0.1
    const answered = await attacker.evaluate(async (target) => (await fetch(`${target}api/produce`, { method: 'POST', mode: 'no-cors', headers: { 'content-type': 'text/plain' }, body: '{"topic":"x","value":"evil"}' })).type, url);
    expect(answered).toBe('opaque');
    await Promise.all([attacker.waitForEvent('load'), attacker.evaluate('document.getElementById("f").submit()')]);
    expect(await attacker.textContent('body')).toMatch(/a cross-site request (is not served here|cannot change anything)/);
  } finally {
    await attacker.close();
    evil.close();
  }
  await new Promise((r) => setTimeout(r, 1_000));
  expect(seen().length).toBe(sentBefore);

  expect(problems).toEqual([]);
  await page.close();
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
}, 180_000);

it('a read-only console offers no action, and refuses one', async () => {
  const { cli, url } = await start({ SLUICE_CONSOLE: 'read-only' });
  const before = await offsets(group, topic);

  // From the console's own origin, a read-only console refuses too, saying how to allow it.
  const refused = await fetch(`${url}api/replay`, { method: 'POST', headers: { 'content-type': 'application/json', origin: url.slice(0, -1) }, body: '{}' });
  expect(refused.status).toBe(403);
  expect(((await refused.json()) as { error: string }).error).toMatch(/read-only.*SLUICE_CONSOLE=read-write/);

  const { page: ro, problems } = await openPage(url);
  expect(await ro.getByTestId('mode').textContent()).toMatch(/read-only/);
  await ro.goto(`${url}#/send`);
  expect(await ro.getByTestId('send-submit').count()).toBe(0);
  await ro.goto(`${url}#/failures`);
  await ro.getByTestId('failure-record').first().waitFor({ timeout: 30_000 });
  expect(await ro.getByTestId('redrive-orders').count()).toBe(0);
  expect(problems).toEqual([]);
  await ro.close();

  expect(await offsets(group, topic)).toEqual(before);
  cli.child.kill('SIGINT');
  expect(await cli.exited).toBe(0);
}, 120_000);

it('tells apart two triggers of one function: each destination redriven on its own, and an unreadable partial answer shown as the failure it is', async () => {
  const two = mkdtempSync(join(tmpdir(), 'sluice-console-two-'));
  const [a, b, dlqA, dlqB] = [uniqueName('console-a'), uniqueName('console-b'), uniqueName('console-a-failed'), uniqueName('console-b-failed')];
  mkdirSync(join(two, 'functions'));
  const trigger = (topic: string, dlq: string) => [
    '      - sluice:', `          topic: ${topic}`, '          startingPosition: TRIM_HORIZON', '          maximumRetryAttempts: 0', '          functionResponseType: ReportBatchItemFailures',
    '          destinationConfig:', '            onFailure:', `              destination: kafka://${dlq}`,
  ];
  writeFileSync(join(two, 'serverless.yml'), ['service: console-two', 'provider:', '  name: aws', 'functions:', '  orders:', '    handler: functions/orders.handler', '    events:', ...trigger(a, dlqA), ...trigger(b, dlqB), ''].join('\n'));
  writeFileSync(join(two, 'functions', 'orders.ts'), [
    'export const handler = async (event: { records: Record<string, Array<{ value: string }>> }) => {',
    '  const values = Object.values(event.records).flat().map((r) => Buffer.from(r.value, \'base64\').toString());',
    "  if (values.includes('bad')) throw new Error('bad record');",
    "  if (values.includes('malformed')) return { batchItemFailures: [{ itemIdentifier: 'nope' }] };",
    '  return {};',
    '};', '',
  ].join('\n'));
  for (const t of [a, b, dlqA, dlqB]) await createTopic(t, 1);
  const cli = runCli('framework/cli/start.ts', ['--config', join(two, 'serverless.yml')], { cwd: two, env: { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_HTTP_PORT: '0' } });
  running.push(cli);
  try {
    await cli.waitForOutput(/ready\. Send records with/, 60_000);
    const url = /console: (http:\/\/\S+)/.exec(cli.output())![1]!;
    const { page, problems } = await openPage(`${url}#/invocations`);
    await produce(a, [{ key: 'm', value: 'malformed' }]);
    await produce(b, [{ key: 'x', value: 'bad' }]);
    // The poller sent the malformed answer's record to the destination: the page says it failed.
    const malformed = page.getByTestId('invocation-row').filter({ hasText: a });
    await expect.poll(() => malformed.getAttribute('data-outcome'), { timeout: 30_000 }).toBe('failed');
    await page.goto(`${url}#/failures`);
    const cardB = page.getByTestId('failures-orders').filter({ hasText: dlqB });
    await expect.poll(() => cardB.getByTestId('failure-record').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => page.getByTestId('failures-orders').filter({ hasText: dlqA }).getByTestId('failure-record').count(), { timeout: 30_000 }).toBe(1);
    await cardB.getByTestId('redrive-orders').click();
    await cardB.getByTestId('redrive-confirm').click();
    await expect.poll(() => cardB.getByTestId('redrive-result').textContent(), { timeout: 30_000 }).toContain(`sent 1 of 1 record in ${dlqB} (1 to ${b})`);

    // The key filter finds an invocation by a key past the five its row shows (one batch of seven).
    const keys = Array.from({ length: 7 }, (_, i) => `many-${i + 1}`);
    await produce(a, keys.map((key) => ({ key, value: 'fine' })));
    await page.goto(`${url}#/invocations`);
    const batch = page.getByTestId('invocation-row').filter({ hasText: 'many-1' });
    await expect.poll(() => batch.getAttribute('data-outcome'), { timeout: 30_000 }).toBe('ok');
    expect(await batch.textContent()).not.toContain('many-7');
    await page.getByTestId('filter-key').fill('MANY-7');
    await expect.poll(() => page.getByTestId('invocation-row').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('invocation-row').textContent()).toContain('many-1');
    expect(problems).toEqual([]);
    await page.close();
  } finally {
    cli.child.kill('SIGINT');
    await cli.exited;
    for (const t of [a, b, dlqA, dlqB]) await deleteTopic(t);
    rmSync(two, { recursive: true, force: true });
  }
}, 120_000);
