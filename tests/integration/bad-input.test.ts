/** Bad input fails at start with a message that names what is wrong and what to change. */
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLocalInvoker } from '../../framework/invoke/local.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { runService } from '../../framework/poller/service-runner.ts';
import { runCli } from '../support/cli.ts';
import { FIXTURES, recorderTrigger } from '../support/harness.ts';
import { testLogger } from '../support/kafka.ts';

const invokerFor = (handler: string) =>
  createLocalInvoker({
    rootDir: FIXTURES, service: 's', stage: 'test', region: 'us-east-1', logger: testLogger, output: () => undefined,
    functions: [{ functionName: 'broken', handler, memorySizeMb: 128, timeoutMs: 5_000, environment: {} }],
  });

describe('bad input', () => {
  it('refuses a handler file that does not exist, naming where it looked', async () => {
    const invoker = invokerFor('functions/missing.handler');
    await expect(invoker.prepare()).rejects.toThrow(/functions\.broken\.handler: no file for "functions\/missing\.handler": looked for functions\/missing\{\.ts,.*\}/);
    await invoker.close();
  });

  it('refuses a handler export that does not exist, listing what the file exports', async () => {
    const invoker = invokerFor('functions/no-export.handler');
    await expect(invoker.prepare()).rejects.toThrow(/functions\.broken\.handler: functions\/no-export\.ts has no exported function "handler" \(it exports: somethingElse\)/);
    await invoker.close();
  });

  it('npm start refuses a handler export that does not exist before any Kafka starts', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-no-export-'));
    mkdirSync(join(dir, 'functions'));
    writeFileSync(join(dir, 'functions', 'orders.ts'), 'export const handle = async () => ({ batchItemFailures: [] });\n');
    writeFileSync(join(dir, 'serverless.yml'), 'service: noexp\nprovider:\n  name: aws\n  runtime: nodejs20.x\nfunctions:\n  orders:\n    handler: functions/orders.handler\n    events:\n      - sluice:\n          topic: orders\n');
    // A Kafka of its own (port, directory) should one start: none may.
    const start = runCli('framework/cli/start.ts', ['--config', join(dir, 'serverless.yml')], { env: { ...process.env, KAFKA_BROKERS: '', SLUICE_KAFKA_PORT: '29593', SLUICE_KAFKA_DIR: join(dir, 'kafka') } });
    expect(await start.exited).toBe(1);
    expect(start.output()).toContain('functions.orders.handler: functions/orders.ts has no exported function "handler" (it exports: handle)');
    expect(start.output()).not.toMatch(/Kafka/);
    expect(existsSync(join(dir, 'kafka'))).toBe(false);
  });

  it('refuses a handler string without an export name', async () => {
    const invoker = invokerFor('functions/recorder');
    await expect(invoker.prepare()).rejects.toThrow(/is not of the form <file>\.<export>/);
    await invoker.close();
  });

  it('refuses a session timeout the broker would not accept, naming the range and the broker settings', async () => {
    const trigger = { ...recorderTrigger({ topic: 'never' }, '/dev/null'), sessionTimeoutMs: 3_000, heartbeatIntervalMs: 500 };
    const invoker = invokerFor('functions/recorder.handler');
    const error = await runService({ triggers: [trigger], invoker, logger: testLogger, events: new Instrumentation() }).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/functions\.recorder\.events\[0\]\.sluice\.sessionTimeoutMs: 3000 is outside what the brokers at .* accept, 6000–1800000 ms \(group\.min\.session\.timeout\.ms/);
    await invoker.close();
  });

  it('gives up on unreachable brokers after bounded retries, saying what to check', async () => {
    const trigger = { ...recorderTrigger({ topic: 'never' }, '/dev/null'), bootstrapServers: ['127.0.0.1:1'] };
    const invoker = invokerFor('functions/recorder.handler');
    const started = Date.now();
    const error = await runService({ triggers: [trigger], invoker, logger: testLogger, events: new Instrumentation(), retries: 2 }).catch((e: unknown) => e);
    const tookMs = Date.now() - started;
    console.log(`[bad-input] unreachable brokers reported after ${tookMs} ms`);
    expect(error).toMatchObject({ code: 'BROKER_UNREACHABLE' });
    // Bounded: the error arrives at all (unbounded retries would run into the test's timeout).
    expect((error as Error).message).toMatch(/Cannot reach Kafka at 127\.0\.0\.1:1 .*KAFKA_BROKERS/);
    await invoker.close();
  });
});
