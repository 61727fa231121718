/**
 * The lambda invoker end to end: serverless-offline (run by osls, as a user runs
 * `serverless offline start`) serves tests/fixtures/offline on a Lambda endpoint; Sluice's
 * poller reads a real topic and invokes `sluice-offline-test-recorder` there through the AWS
 * SDK. Asserted: what the handler returned, the offsets committed on the broker, and that a
 * throwing chunk stays uncommitted until it succeeds. Also `npm start -- --invoker lambda`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadService } from '../../framework/config/load.ts';
import { createLambdaInvoker } from '../../framework/invoke/lambda.ts';
import { createInvoker } from '../../framework/invoke/select.ts';
import type { InvokeResult, Invoker } from '../../framework/invoke/types.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { runService } from '../../framework/poller/service-runner.ts';
import { REPO, runCli } from '../support/cli.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, testLogger, uniqueName, waitFor } from '../support/kafka.ts';

const FIXTURE = join(REPO, 'tests', 'fixtures', 'offline');
const OSLS = join(REPO, 'node_modules', 'osls', 'bin', 'serverless.js');
const LAMBDA = 'sluice-offline-test-recorder';

interface Offline {
  endpoint: string;
  output(): string;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** `serverless offline start` on a free Lambda port; resolves once the endpoint listens. */
async function startOffline(): Promise<Offline> {
  for (const pkg of ['osls', 'serverless-offline']) {
    if (!existsSync(join(REPO, 'node_modules', pkg, 'package.json'))) throw new Error(`${pkg} is not installed (a devDependency): run npm ci first.`);
  }
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, [OSLS, 'offline', 'start', '--host', '127.0.0.1', '--lambdaPort', String(port)], {
    cwd: FIXTURE, env: { ...process.env, SLS_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<void>((resolve) => child.on('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill('SIGINT');
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 60_000;
  while (!/Offline \[http for lambda\] listening on/.test(out)) {
    if (child.exitCode !== null) throw new Error(`serverless-offline exited (${child.exitCode}) before listening:\n${out}`);
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`serverless-offline did not listen on port ${port} within 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { endpoint: `http://127.0.0.1:${port}`, output: () => out, stop };
}

const settledOn = async (group: string, topic: string) => (await offsets(group, topic)).every((p) => p.committed === p.logEnd);
const committedOf = async (group: string, topic: string, partition: number) => (await offsets(group, topic)).find((p) => p.partition === partition)!.committed;

describe('lambda invoker on serverless-offline', () => {
  // Started by the first test that needs it, so a missing piece fails each such test (never skips it).
  let started: Promise<Offline> | undefined;
  const offline = () => (started ??= startOffline());
  afterAll(async () => {
    await (await started?.catch(() => undefined))?.stop();
  });

  it("returns the handler's answers, commits to the log end, and keeps a throwing chunk uncommitted until it succeeds", async () => {
    const { endpoint } = await offline();
    const topic = uniqueName('offline');
    const group = uniqueName('group');
    await createTopic(topic, 2);
    const env = { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_OFFLINE_TOPIC: topic, SLUICE_OFFLINE_GROUP: group };
    const service = await loadService({ rootDir: FIXTURE, env });
    const lambda = createInvoker({ kind: 'lambda', lambdaEndpoint: endpoint }, service, service.triggers, testLogger, () => undefined);
    const results: InvokeResult[] = [];
    const invoker: Invoker = { ...lambda, invoke: async (r) => { const res = await lambda.invoke(r); results.push(res); return res; } };
    const running = await runService({ triggers: service.triggers, invoker, logger: testLogger, events: new Instrumentation() });
    const fuse = join(mkdtempSync(join(tmpdir(), 'sluice-offline-')), 'poison');
    try {
      const sent = Array.from({ length: 20 }, (_, n) => JSON.stringify({ n }));
      await produce(topic, sent.map((value, n) => ({ partition: n % 2, value })));
      await waitFor('all 20 records committed', () => settledOn(group, topic));
      const answers = results.map((r) => (r.ok ? (r.payload as { functionName: string; values: string[] }) : undefined));
      expect(answers.every((a) => a?.functionName === LAMBDA)).toBe(true);
      expect(answers.flatMap((a) => a!.values).sort()).toEqual([...sent].sort());

      writeFileSync(fuse, '');
      const poison = JSON.stringify({ poisonWhile: fuse });
      await produce(topic, [{ partition: 0, value: poison }, { partition: 0, value: '{"n":20}' }, { partition: 1, value: '{"n":21}' }]);
      const failures = () => results.filter((r) => !r.ok);
      await waitFor('two failed attempts of the poison chunk', () => failures().length >= 2);
      await waitFor('partition 1 committed past its new record', async () => (await committedOf(group, topic, 1)) === 11);
      expect(failures()[0]).toMatchObject({ ok: false, error: { kind: 'error', name: 'Error', message: 'poison record at offset 10' } });
      expect(await committedOf(group, topic, 0)).toBe(10);

      rmSync(fuse);
      await waitFor('the poison chunk to succeed and be committed', () => settledOn(group, topic));
      expect(await committedOf(group, topic, 0)).toBe(12);
      const last = results.filter((r) => r.ok).map((r) => r.payload as { values: string[] }).find((a) => a.values.includes(poison));
      expect(last?.values).toEqual([poison, '{"n":20}']);
    } finally {
      rmSync(fuse, { force: true });
      await running.stop();
      await invoker.close();
      await deleteTopic(topic);
    }
  });

  it('a Lambda name serverless-offline does not serve fails the invocation as never reaching it, saying which (its start check is skipped there)', async () => {
    const { endpoint } = await offline();
    const invoker = createLambdaInvoker({ functionNames: { recorder: 'sluice-offline-test-nope' }, endpoint, region: 'us-east-1', logger: testLogger });
    try {
      await invoker.prepare(); // serverless-offline has no GetFunction: skipped, not failed
      const result = await invoker.invoke({ functionName: 'recorder', records: [], source: { bootstrapServers: 'b:9092' }, timeoutMs: 5_000 });
      expect(result).toMatchObject({ ok: false, error: { kind: 'not-invoked', name: 'ResourceNotFoundException', message: `no Lambda function sluice-offline-test-nope at ${endpoint}: Function not found: sluice-offline-test-nope` } });
    } finally {
      await invoker.close();
    }
  });

  it('npm start -- --invoker lambda --lambda-endpoint runs the trigger of serverless.yml against serverless-offline', async () => {
    const { endpoint, output } = await offline();
    const topic = uniqueName('offline-cli');
    const group = uniqueName('group');
    await createTopic(topic, 1);
    const env = { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_OFFLINE_TOPIC: topic, SLUICE_OFFLINE_GROUP: group };
    const start = runCli('framework/cli/start.ts', ['--invoker', 'lambda', '--lambda-endpoint', endpoint], { cwd: FIXTURE, env });
    try {
      await start.waitForOutput(/ready\. Send records with/, 60_000);
      await produce(topic, [1, 2, 3].map((n) => ({ value: JSON.stringify({ n }) })));
      await start.waitForOutput(/✓ recorder \S+-0 \d+ ok/, 60_000);
      await waitFor('3 records committed', async () => (await committedOf(group, topic, 0)) === 3);
      expect(output()).toMatch(/\(λ: recorder\) RequestId/);
      start.child.kill('SIGINT');
      expect(await start.exited).toBe(0);
    } finally {
      if (start.child.exitCode === null) start.child.kill('SIGKILL');
      await deleteTopic(topic);
    }
  });

  it('npm start refuses an unknown invoker, and --lambda-endpoint without --invoker lambda, exit code 1', async () => {
    const unknown = runCli('framework/cli/start.ts', ['--invoker', 'remote'], { cwd: FIXTURE });
    expect(await unknown.exited).toBe(1);
    expect(unknown.output()).toMatch(/--invoker remote: unknown invoker; use one of local, lambda/);
    const orphan = runCli('framework/cli/start.ts', ['--lambda-endpoint', 'http://localhost:3002'], { cwd: FIXTURE });
    expect(await orphan.exited).toBe(1);
    expect(orphan.output()).toMatch(/--lambda-endpoint needs --invoker lambda/);
  });
});
