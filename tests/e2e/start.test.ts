/**
 * `npm start` as a user runs it, on the embedded default: no brokers configured, so it starts
 * its own Apache Kafka, creates the example topics, runs both example handlers; records sent
 * with `npm run produce` show up, are committed, and Ctrl-C stops everything with exit 0.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { brokerStatus } from '../../infra/kafka/broker.ts';
import { ClusterAdmin } from '../../framework/kafka/kafkajs/admin.ts';
import { createKafkaClient } from '../../framework/kafka/kafkajs/client.ts';
import { runCli, type CliProcess } from '../support/cli.ts';
import { testLogger } from '../support/kafka.ts';
import { testPort } from '../support/ports.ts';

const instanceDir = mkdtempSync(join(tmpdir(), 'sluice-e2e-kafka-'));
// Below Linux's ephemeral range (32768+): a client socket of another test took 39192 once ("already in use by another process").
const port = testPort(28720);
const env: NodeJS.ProcessEnv = { ...process.env, SLUICE_KAFKA_DIR: instanceDir, SLUICE_KAFKA_PORT: String(port) };
delete env.KAFKA_BROKERS;

describe('npm start', () => {
  let start: CliProcess | undefined;
  afterAll(async () => {
    if (start && start.child.exitCode === null) start.child.kill('SIGKILL');
    const { stopBroker } = await import('../../infra/kafka/broker.ts');
    await stopBroker({ instanceDir });
  });

  it('runs the example service on a local Kafka, shows what flows, and stops cleanly on SIGINT', async () => {
    start = runCli('framework/cli/start.ts', [], { env });
    await start.waitForOutput(/ready\. Send records with/, 120_000);
    expect(start.output()).toMatch(/created topic.*topic=orders/);
    // `ready.` means consuming: both triggers' members joined their groups first.
    const before = start.output().slice(0, start.output().indexOf('ready.'));
    expect(before).toMatch(/group orders-processor: joined/);
    expect(before).toMatch(/group sluice-sluice-example-payments: joined/);

    const sent = runCli('framework/cli/produce.ts', ['orders', '{"id":1}', '{"id":2}', '{"id":3}'], { env });
    expect(await sent.exited).toBe(0);
    const payments = runCli('framework/cli/produce.ts', ['payments', '--count', '10'], { env });
    expect(await payments.exited).toBe(0);

    await start.waitForOutput(/✓ orders orders-\d+ \d+ ok/, 60_000);
    await start.waitForOutput(/\[payments\] payment totals/, 60_000);
    await start.waitForOutput(/\[orders\] orders-\d+@\d+ \{"id":3\}/, 60_000);

    const admin = await ClusterAdmin.connect(createKafkaClient({ brokers: [`127.0.0.1:${port}`], logger: testLogger }), [`127.0.0.1:${port}`]);
    try {
      const waitCommitted = async (group: string, topic: string) => {
        for (let i = 0; i < 100; i++) {
          const o = await admin.offsets(group, topic);
          if (o.every((p) => p.committed === p.logEnd || (p.logEnd === 0 && p.committed === -1))) return o;
          await new Promise((r) => setTimeout(r, 200));
        }
        return admin.offsets(group, topic);
      };
      const orders = await waitCommitted('orders-processor', 'orders');
      const paid = await waitCommitted('sluice-sluice-example-payments', 'payments');
      expect(orders.reduce((n, p) => n + p.logEnd, 0)).toBe(3);
      expect(paid.reduce((n, p) => n + p.logEnd, 0)).toBe(10);
      for (const p of [...orders, ...paid]) if (p.logEnd > 0) expect(p.committed).toBe(p.logEnd);
    } finally {
      await admin.disconnect();
    }

    start.child.kill('SIGINT');
    expect(await start.exited).toBe(0);
    expect(start.output()).toMatch(/stopped/);
    expect((await brokerStatus({ instanceDir })).running).toBe(false);
  });

  it('refuses a bad trigger with the path and the fix, exit code 1', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-bad-'));
    writeFileSync(join(dir, 'serverless.yml'), 'service: bad\nprovider:\n  name: aws\nfunctions:\n  f:\n    handler: f.handler\n    events:\n      - sluice:\n          topic: t\n          batchSize: 0\n          batchsize: 5\n');
    const cli = runCli('framework/cli/start.ts', [], { cwd: dir, env });
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toMatch(/functions\.f\.events\[0\]\.sluice\.batchSize: .*at least 1/);
    expect(cli.output()).toMatch(/unknown property "batchsize"\. Did you mean "batchSize"\?/);
  });

  it('exits non-zero when the configured brokers cannot be reached', async () => {
    const cli = runCli('framework/cli/start.ts', [], { env: { ...env, KAFKA_BROKERS: '127.0.0.1:1' } });
    expect(await cli.exited).toBe(1);
    expect(cli.output()).toMatch(/Cannot reach Kafka at 127\.0\.0\.1:1/);
  });
});
