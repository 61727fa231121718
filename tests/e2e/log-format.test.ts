/**
 * What `npm start` prints for an invocation, in both formats: the handler's own lines come
 * before the outcome line of their invocation (they travel with its result), and with
 * SLUICE_LOG_FORMAT=json every line is one JSON object, the handler's tagged with the request id
 * its invocation's outcome carries, as Lambda tags its log lines.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { runCli, type CliProcess } from '../support/cli.ts';
import { brokers, createTopic, deleteTopic, produce, uniqueName, waitFor } from '../support/kafka.ts';

const topic = uniqueName('logs');
const running: CliProcess[] = [];
afterAll(async () => {
  for (const p of running) if (p.child.exitCode === null) p.child.kill('SIGKILL');
  await deleteTopic(topic);
});

function service(format: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-logs-'));
  mkdirSync(join(dir, 'functions'));
  writeFileSync(join(dir, 'serverless.yml'), [`service: logs-test-${format}`, 'provider:', '  name: aws', 'functions:', '  orders:', '    handler: functions/orders.handler',
    '    events:', '      - sluice:', `          topic: ${topic}`, '          startingPosition: TRIM_HORIZON', '          batchSize: 1', ''].join('\n'));
  // Many lines per record: were they printed through the worker's stdout stream, some would come after the outcome.
  writeFileSync(join(dir, 'functions', 'orders.ts'), [
    'export const handler = async (event: { records: Record<string, Array<{ value: string }>> }) => {',
    "  for (const r of Object.values(event.records).flat()) for (let i = 0; i < 50; i++) console.log('line', i, Buffer.from(r.value, 'base64').toString());",
    '};', ''].join('\n'));
  return dir;
}

it('prints the handler\'s lines before their outcome, and in JSON tags them with the request id', async () => {
  await createTopic(topic, 1);
  await produce(topic, [{ value: 'a' }, { value: 'b' }, { value: 'c' }]);
  for (const format of ['text', 'json'] as const) {
    const dir = service(format); // a group of its own per format: each reads the three records
    const start = runCli('framework/cli/start.ts', ['--config', join(dir, 'serverless.yml')], { cwd: dir, env: { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_HTTP_PORT: '0', SLUICE_LOG_FORMAT: format } });
    running.push(start);
    await waitFor(`three invocations (${format})`, () => (start.output().match(format === 'json' ? /"event":"poller\.chunk_end"/g : /✓ orders /g) ?? []).length === 3, 60_000);
    start.child.kill('SIGINT');
    expect(await start.exited).toBe(0);
    const lines = start.output().split('\n').filter(Boolean);
    if (format === 'text') {
      for (const v of ['a', 'b', 'c']) {
        const last = lines.findIndex((l) => l === `[orders] line 49 ${v}`);
        const outcome = lines.findIndex((l, i) => i > lines.findIndex((x) => x === `[orders] line 0 ${v}`) && /✓ orders /.test(l));
        expect(last).toBeGreaterThan(-1);
        expect(last).toBeLessThan(outcome);
      }
    } else {
      const objects = lines.map((l) => JSON.parse(l) as { event?: string; requestId?: string; function?: string; message?: string });
      const ends = objects.filter((o) => o.event === 'poller.chunk_end');
      expect(ends).toHaveLength(3);
      for (const end of ends) {
        const own = objects.filter((o) => o.function === 'orders' && o.requestId === end.requestId);
        expect(own).toHaveLength(50);
        expect(objects.indexOf(own[49]!)).toBeLessThan(objects.indexOf(end));
      }
    }
  }
}, 120_000);
