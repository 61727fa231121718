/**
 * The failure loop as a user walks it, with the commands a user runs: `npm start` runs a handler
 * that fails some records into a `kafka://` destination; `npm run tail` shows them with why they
 * failed; the handler is fixed (hot reload); `npm run redrive -- --dry-run` lists, `npm run
 * redrive` sends them back; the fixed handler processes them. Every record ends processed: the
 * good ones once, each failed one once more after the redrive, none sent back twice.
 */
import { mkdirSync, mkdtempSync, readFileSync, existsSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli, type CliProcess } from '../support/cli.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topic = uniqueName('redrive-src');
const dlq = uniqueName('redrive-dlq');
const dir = mkdtempSync(join(tmpdir(), 'sluice-redrive-'));
const seenFile = join(dir, 'seen.jsonl');
const running: CliProcess[] = [];

afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await deleteTopic(topic);
  await deleteTopic(dlq);
});

const handler = (fixed: boolean) => [
  "import { appendFileSync } from 'node:fs';",
  'export const handler = async (event: { records: Record<string, Array<{ value: string; offset: number }>> }) => {',
  '  for (const r of Object.values(event.records).flat()) {',
  "    const value = Buffer.from(r.value, 'base64').toString();",
  `    const ok = ${fixed ? 'true' : "!value.startsWith('bad')"};`,
  "    appendFileSync(process.env.SEEN_FILE!, JSON.stringify({ value, ok }) + '\\n');",
  "    if (!ok) throw new Error(`cannot handle ${value}`);",
  '  }',
  '};', '',
].join('\n');

const seen = (): Array<{ value: string; ok: boolean }> => (existsSync(seenFile) ? readFileSync(seenFile, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)) : []);

it('tail shows the failed records and why, redrive sends them back once, and the fixed handler processes every one', async () => {
  mkdirSync(join(dir, 'functions'));
  writeFileSync(join(dir, 'serverless.yml'), [
    'service: redrive-test', 'provider:', '  name: aws', 'functions:', '  orders:', '    handler: functions/orders.handler',
    '    environment:', `      SEEN_FILE: ${seenFile}`, '    events:', '      - sluice:', `          topic: ${topic}`,
    '          startingPosition: TRIM_HORIZON', '          batchSize: 1', '          maximumRetryAttempts: 0',
    '          destinationConfig:', '            onFailure:', `              destination: kafka://${dlq}`, '',
  ].join('\n'));
  writeFileSync(join(dir, 'functions', 'orders.ts'), handler(false));
  await createTopic(topic, 2);
  await createTopic(dlq, 1);
  const env = { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_HTTP_PORT: '0' };
  const cli = (script: string, args: string[]) => {
    const p = runCli(script, args, { cwd: dir, env });
    running.push(p);
    return p;
  };

  const start = cli('framework/cli/start.ts', ['--config', join(dir, 'serverless.yml')]);
  await start.waitForOutput(/ready\. Send records with/, 60_000);
  const tail = cli('framework/cli/tail.ts', [dlq, '--json']);
  await tail.waitForOutput(/reading .* new records only/, 30_000);

  const values = ['good-1', 'bad-1', 'good-2', 'bad-2', 'good-3', 'bad-3'];
  await produce(topic, values.map((value) => ({ key: value, value })));
  await waitFor('the bad ones in the destination', () => tail.output().split('\n').filter((l) => l.startsWith('{')).length === 3, 60_000);
  const shown = tail.output().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l));
  expect(shown.map((r) => r.value).sort()).toEqual(['bad-1', 'bad-2', 'bad-3']);
  for (const r of shown) {
    expect(r.failure).toMatchObject({ reason: 'RetryAttemptsExhausted', attempts: 1, source: { topic } });
    expect(r.failure.error).toContain(`cannot handle ${r.value}`);
    expect(r.failure.error).toMatch(/\n    at .*functions\/orders\.ts:7:\d+/); // the handler's stack, source-mapped to its .ts line
    expect(r.key).toBe(r.value);
  }

  writeFileSync(join(dir, 'functions', 'orders.ts'), handler(true));
  await start.waitForOutput(/reloaded orders in \d+ ms/, 10_000);

  const dry = cli('framework/cli/redrive.ts', [dlq, '--dry-run']);
  expect(await dry.exited).toBe(0);
  expect(dry.output()).toMatch(/dry run: 3 of 3 records in .* would be sent/);
  expect(dry.output().match(/^would send /gm)).toHaveLength(3);

  const redrive = cli('framework/cli/redrive.ts', [dlq]);
  expect(await redrive.exited).toBe(0);
  expect(redrive.output()).toContain(`sent 3 of 3 records in ${dlq} (3 to ${topic})`);

  await waitFor('the redriven records processed', () => seen().filter((s) => s.ok && s.value.startsWith('bad')).length >= 3, 60_000);
  await waitFor('everything committed', async () => (await offsets('sluice-redrive-test-orders', topic)).every((p) => p.committed === p.logEnd), 30_000);
  const counts = new Map<string, { ok: number; failed: number }>();
  for (const s of seen()) {
    const c = counts.get(s.value) ?? { ok: 0, failed: 0 };
    c[s.ok ? 'ok' : 'failed']++;
    counts.set(s.value, c);
  }
  console.log(`[redrive] per record (ok/failed): ${JSON.stringify(Object.fromEntries(counts))}`);
  for (const v of values) expect(counts.get(v)).toEqual(v.startsWith('bad') ? { ok: 1, failed: 1 } : { ok: 1, failed: 0 });
  // Nothing failed again: the destination still holds the three copies.
  expect((await offsets('unused-group', dlq)).reduce((n, p) => n + p.logEnd, 0)).toBe(3);

  for (const p of [tail, start]) p.child.kill('SIGINT');
  expect(await start.exited).toBe(0);
  expect(await tail.exited).toBe(0);
}, 180_000);
