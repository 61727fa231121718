/**
 * `invoke` and `generate-event` as a user runs them: records read from Kafka at an offset reach
 * the handler exactly as the trigger's poller would hand them (its filter applied), nothing is
 * committed; a generated event piped into `invoke --event -` runs the handler with it.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';
import { REPO, runCli } from '../support/cli.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, uniqueName } from '../support/kafka.ts';

const topic = uniqueName('invoke');
const dir = mkdtempSync(join(tmpdir(), 'sluice-invoke-'));
afterAll(() => deleteTopic(topic));

it('invokes exactly the named records, filtered as the trigger filters, and commits nothing; a generated event pipes into invoke', async () => {
  mkdirSync(join(dir, 'functions'));
  writeFileSync(join(dir, 'serverless.yml'), [
    'service: invoke-test', 'provider:', '  name: aws', 'functions:', '  orders:', '    handler: functions/orders.handler', '    events:', '      - sluice:',
    `          topic: ${topic}`, '          filterPatterns:', '            - value:', '                kind: [keep]', '',
  ].join('\n'));
  writeFileSync(join(dir, 'functions', 'orders.ts'), [
    'export const handler = async (event: { records: Record<string, Array<{ offset: number; value: string }>> }) => ({',
    "  offsets: Object.values(event.records).flat().map((r) => `${r.offset}:${Buffer.from(r.value, 'base64').toString()}`),",
    '});', '',
  ].join('\n'));
  await createTopic(topic, 1);
  await produce(topic, Array.from({ length: 6 }, (_, i) => ({ value: JSON.stringify({ n: i, kind: i % 2 ? 'drop' : 'keep' }) })));
  const env = { ...process.env, KAFKA_BROKERS: brokers().join(',') };

  const invoke = runCli('framework/cli/invoke.ts', ['-f', 'orders', '--offset', '1', '--count', '4'], { cwd: dir, env });
  expect(await invoke.exited).toBe(0);
  const out = invoke.output();
  expect(out).toContain('filtered out by the trigger\'s filterPatterns (committed without an invocation by the poller): offsets 1, 3');
  const payload = JSON.parse(/\{\s*"offsets"[\s\S]*?\n\}/.exec(out)![0]) as { offsets: string[] };
  expect(payload.offsets).toEqual(['2:{"n":2,"kind":"keep"}', '4:{"n":4,"kind":"keep"}']);
  expect((await offsets('sluice-invoke-test-orders', topic))[0]!.committed).toBe(-1);

  const tsx = `node --import ${JSON.stringify(join(REPO, 'node_modules/tsx/dist/loader.mjs'))}`;
  const piped = await promisify(execFile)('bash', ['-c', `${tsx} ${REPO}/framework/cli/generate-event.ts -f orders --value '{"kind":"keep","n":9}' --count 2 | ${tsx} ${REPO}/framework/cli/invoke.ts -f orders --event -`], { cwd: dir, env });
  expect(piped.stdout).toContain('"0:{\\"kind\\":\\"keep\\",\\"n\\":9}"');
  expect(piped.stdout).toContain('"1:{\\"kind\\":\\"keep\\",\\"n\\":9}"');

  const none = runCli('framework/cli/invoke.ts', ['-f', 'orders'], { cwd: dir, env });
  expect(await none.exited).toBe(1);
  expect(none.output()).toContain('Give either --event <file|-> or --offset <n>');
}, 120_000);
