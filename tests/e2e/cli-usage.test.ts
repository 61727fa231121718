/**
 * The npm doors of `start`, `lag` and `status` given what a user mistypes: each says what was
 * wrong and how to ask instead, with no stack trace, and exits 1 before it reaches a broker (a new
 * user's walk found `npm start -- --fucntion orders` printing a TypeError and eight stack frames).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.ts';

// No broker is reached: a broker address nothing listens on makes sure of it.
const env: NodeJS.ProcessEnv = { ...process.env, KAFKA_BROKERS: '127.0.0.1:1' };

async function mistyped(script: string, args: string[]): Promise<string> {
  const run = runCli(`framework/cli/${script}.ts`, args, { env });
  expect(await run.exited, run.output()).toBe(1);
  expect(run.output()).not.toMatch(/^\s+at /m);
  return run.output();
}

describe('a mistyped command line', () => {
  it.each(['start', 'lag', 'status'])('%s: an unknown option is named, with the usage', async (script) => {
    const out = await mistyped(script, ['--fucntion', 'orders']);
    expect(out).toContain("sluice: Unknown option '--fucntion'.");
    expect(out).toContain('Usage: npm ');
  });

  it.each(['start', 'lag', 'status'])('%s: an argument where only options go says where a function is named', async (script) => {
    const out = await mistyped(script, ['orders']);
    expect(out).toContain("sluice: Unexpected argument 'orders': this command takes options only (a function is named with --function <name>).");
  });

  it('start: --partitions that is not a whole number of at least 1 is refused before Kafka starts', async () => {
    for (const bad of ['abc', '0', '1.5', '0x10', '1e1', ' 3']) {
      const out = await mistyped('start', ['--partitions', bad]);
      expect(out).toContain(`sluice: --partitions ${bad}: give a whole number of at least 1.`);
      expect(out).not.toMatch(/Kafka/);
    }
  });

  it.each(['start', 'lag', 'status'])('%s: a function with no trigger names the functions that have one', async (script) => {
    const out = await mistyped(script, ['--function', 'nosuch']);
    expect(out).toContain('sluice: No sluice trigger for function "nosuch" (functions with triggers: orders, payments).');
  });

  it('start: a trigger turned off is named, with the setting that turned it off', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-usage-'));
    writeFileSync(join(dir, 'serverless.yml'), 'service: off\nprovider:\n  name: aws\nfunctions:\n  f:\n    handler: functions/f.handler\n    events:\n      - sluice:\n          topic: t\n          enabled: false\n');
    for (const args of [[], ['--function', 'f']]) {
      const out = await mistyped('start', ['--config', join(dir, 'serverless.yml'), ...args]);
      expect(out).toContain('sluice: The sluice trigger of f has `enabled: false`: set it to true (or remove it) to run it.');
    }
  });
});
