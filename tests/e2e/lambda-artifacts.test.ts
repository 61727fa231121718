/**
 * What `serverless package` ships for the example service's functions runs on Lambda's Node.js
 * runtime. The example (serverless.yml and functions/, its topics and service name made unique)
 * is packaged as a user packages it; each function's zip is unpacked into an empty directory
 * outside the repository, with no node_modules anywhere above it, and run by aws-lambda-ric 4
 * (Lambda's own runtime client: its handler resolution, .js/.mjs/.cjs by the handler: path) on
 * Node.js 22 and on Node.js 24 (npm's node package, infra/npm-tools.ts). The packaged poller
 * container then polls real records from the triggers' topics and invokes the functions through a
 * stand-in Lambda API that hands every event to both runtimes: each answers, the handlers print
 * the records (orders: a plain handler; payments: middy with serverless-sluice/handler's JSON
 * decoder), and the poller commits every offset. A thrown error's stack names the TypeScript
 * line, through the bundle's source map and the function's NODE_OPTIONS.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureNode } from '../../infra/npm-tools.ts';
import { filesIn, packagedFunctions, unpack, type PackagedFunction } from '../support/artifacts.ts';
import { REPO, runCli } from '../support/cli.ts';
import { brokers, createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';
import { LocalLambda, type LambdaAnswer } from '../support/lambda-runtime.ts';
import { OSLS } from '../support/sls.ts';

const NODE_MAJORS = [22, 24] as const;
const PLUGIN = join(REPO, 'framework', 'plugin', 'index.cjs');
const work = mkdtempSync(join(tmpdir(), 'sluice-artifacts-'));
const service = uniqueName('artifacts');
const topics = { orders: uniqueName('orders'), payments: uniqueName('payments') };
const ordersGroup = uniqueName('orders-group');
const lambdas: LocalLambda[] = [];
const taskRoots: string[] = [];
/** A fresh /var/task for one runtime. */
const taskRoot = (zip: string) => taskRoots[taskRoots.push(unpack(zip)) - 1]!;
let functions: PackagedFunction[] = [];
let fakeLambda: Server | undefined;

afterAll(async () => {
  fakeLambda?.close();
  await Promise.all(lambdas.map((l) => l.stop()));
  await Promise.all(Object.values(topics).map(deleteTopic));
  for (const dir of [work, ...taskRoots]) rmSync(dir, { recursive: true, force: true });
});

/** The example service as it is, but for names the shared broker needs unique; node_modules as `npm install` left it. */
function exampleService(): string {
  const dir = join(work, 'service');
  mkdirSync(dir);
  cpSync(join(REPO, 'functions'), join(dir, 'functions'), { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'junction');
  const yml = readFileSync(join(REPO, 'serverless.yml'), 'utf8')
    .replace(/^service: sluice-example$/m, `service: ${service}`)
    .replace(/^(\s*-\s*)serverless-sluice\b.*$/m, `$1${PLUGIN}`)
    .replace(/topic: orders$/m, `topic: ${topics.orders}`)
    .replace(/topic: payments$/m, `topic: ${topics.payments}`)
    .replace(/consumerGroupId: orders-processor$/m, `consumerGroupId: ${ordersGroup}`);
  expect(yml).toContain(topics.payments);
  writeFileSync(join(dir, 'serverless.yml'), yml);
  return dir;
}

describe("the example service's packaged functions, on Lambda's Node.js runtime", () => {
  let out: string;
  const nodes = new Map<number, string>();

  beforeAll(() => {
    for (const major of NODE_MAJORS) nodes.set(major, ensureNode(major));
    out = join(work, 'out');
    const dir = exampleService();
    const started = Date.now();
    const run = spawnSync(process.execPath, [OSLS, 'package', '--package', out], {
      cwd: dir,
      env: { ...process.env, KAFKA_BROKERS: brokers().join(','), SLUICE_IMAGE: 'example/sluice:1.0', SLS_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' },
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(run.status, `${run.stdout}${run.stderr}`).toBe(0);
    console.log(`[artifacts] serverless package in ${Date.now() - started} ms: ${(run.stdout + run.stderr).match(/Sluice: bundled.*/)?.[0]}`);
    functions = packagedFunctions(out);
  });

  it('ships one small zip holding only the bundles and their source maps, at the handler paths', () => {
    expect(functions.map((f) => [f.logicalId, f.handler, f.runtime])).toEqual([
      ['OrdersLambdaFunction', 'functions/orders.handler', 'nodejs22.x'],
      ['PaymentsLambdaFunction', 'functions/payments.handler', 'nodejs22.x'],
    ]);
    const zips = [...new Set(functions.map((f) => f.zip))];
    expect(zips.map((z) => z.slice(out.length + 1))).toEqual([`${service}.zip`]);
    const dir = unpack(zips[0]!);
    const files = filesIn(dir);
    expect(files).toEqual(['functions/orders.mjs', 'functions/orders.mjs.map', 'functions/payments.mjs', 'functions/payments.mjs.map']);
    const sizes = files.map((f) => `${f} ${(statSync(join(dir, f)).size / 1024).toFixed(1)} KiB`).join(', ');
    console.log(`[artifacts] ${service}.zip: ${(statSync(zips[0]!).size / 1024).toFixed(1)} KiB, ${files.length} files (${sizes})`);
    expect(statSync(zips[0]!).size).toBeLessThan(64 * 1024);
    // middy and serverless-sluice/handler are inside the bundle: nothing is imported but Node's own modules.
    const imports = [...readFileSync(join(dir, 'functions/payments.mjs'), 'utf8').matchAll(/^import .* from ["']([^"']+)["']/gm)].map((m) => m[1]);
    expect(imports.filter((m) => !m!.startsWith('node:'))).toEqual([]);
    rmSync(dir, { recursive: true, force: true });
  });

  it("sets NODE_OPTIONS=--enable-source-maps on each function, and a thrown error's stack names the TypeScript line", async () => {
    for (const f of functions) expect(f.environment.NODE_OPTIONS, f.name).toBe('--enable-source-maps');
    const orders = functions.find((f) => f.logicalId === 'OrdersLambdaFunction')!;
    for (const [major, node] of nodes) {
      const lambda = await LocalLambda.start({ taskRoot: taskRoot(orders.zip), handler: orders.handler, node, functionName: orders.name, runtime: orders.runtime, environment: orders.environment });
      lambdas.push(lambda);
      // Not an iterable list of records: the handler's for-of throws.
      const answer = await lambda.invoke({ eventSource: 'SelfManagedKafka', bootstrapServers: 'b:9092', records: { 'orders-0': 1 } });
      expect(answer, `Node ${major}`).toMatchObject({ ok: false, errorType: 'TypeError', init: false });
      expect((answer as { trace: string[] }).trace.join('\n'), `Node ${major}`).toMatch(/functions\/orders\.ts:\d+:\d+/);
    }
  });

  it('runs each function on Node.js 22 and 24 with the events the packaged poller builds from real records, and the poller commits them all', async () => {
    // Two runtimes per function, one per Node.js major; the stand-in Lambda API hands each event to both.
    const runtimes = new Map<string, LocalLambda[]>();
    for (const f of functions) {
      const started: LocalLambda[] = [];
      for (const [, node] of nodes) {
        started.push(await LocalLambda.start({ taskRoot: taskRoot(f.zip), handler: f.handler, node, functionName: f.name, runtime: f.runtime, timeoutSeconds: f.timeout, environment: f.environment }));
      }
      lambdas.push(...started);
      runtimes.set(f.name, started);
    }
    const answers: Array<{ name: string; records: number; answers: LambdaAnswer[] }> = [];
    fakeLambda = createServer((req, res) => {
      let body = '';
      req.on('data', (d: Buffer) => (body += d.toString()));
      req.on('end', () => {
        const name = decodeURIComponent(/\/functions\/([^/]+)/.exec(req.url ?? '')?.[1] ?? '');
        const known = runtimes.get(name);
        if (!known) return res.writeHead(404, { 'x-amzn-errortype': 'ResourceNotFoundException' }).end(JSON.stringify({ message: `Function not found: ${name}` }));
        if (!req.url?.endsWith('/invocations')) return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ Configuration: { FunctionName: name } }));
        const event = JSON.parse(body) as { records: Record<string, unknown[]> };
        void Promise.all(known.map((l) => l.invoke(event))).then((each) => {
          answers.push({ name, records: Object.values(event.records).flat().length, answers: each });
          const first = each[0]!;
          if (first.ok) res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(first.result));
          else res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' }).end(JSON.stringify(first));
        });
      });
    });
    await new Promise<void>((resolve) => fakeLambda!.listen(0, '127.0.0.1', resolve));

    await createTopic(topics.orders, 2);
    await createTopic(topics.payments, 1);
    const template = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8')) as { Resources: { SluiceTaskDefinition: { Properties: { ContainerDefinitions: Array<{ Environment: Array<{ Name: string; Value: string }> }> } } } };
    const triggers = template.Resources.SluiceTaskDefinition.Properties.ContainerDefinitions[0]!.Environment.find((e) => e.Name === 'SLUICE_TRIGGERS')!.Value;
    const env: NodeJS.ProcessEnv = {
      ...process.env, SLUICE_TRIGGERS: triggers, SLUICE_HTTP_PORT: '0', AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(fakeLambda.address() as AddressInfo).port}`,
    };
    delete env.AWS_PROFILE;
    const poller = runCli('dist/framework/cli/container.js', [], { env, tsx: false });
    try {
      await poller.waitForOutput(/ready: .*2 trigger\(s\)/, 60_000);
      await produce(topics.orders, [{ key: 'a', value: JSON.stringify({ id: 1 }) }, { key: 'b', value: JSON.stringify({ id: 2 }) }, { key: 'c', value: null }]);
      const payments = [{ id: 'p1', amount: 10, currency: 'EUR' }, { id: 'p2', amount: 2.5, currency: 'EUR' }, { id: 'p3', amount: 3, currency: 'USD' }];
      await produce(topics.payments, payments.map((p) => ({ key: p.id, value: JSON.stringify(p), headers: [['source', 'test']] as Array<[string, string]> })));
      const committed = async (group: string, topic: string) => (await offsets(group, topic)).reduce((n, p) => n + Math.max(p.committed, 0), 0);
      await waitFor('every record committed', async () => (await committed(ordersGroup, topics.orders)) === 3 && (await committed(`sluice-${service}-payments`, topics.payments)) === 3, 60_000);
    } finally {
      poller.child.kill('SIGTERM');
      expect(await poller.exited, poller.output()).toBe(0);
    }

    for (const a of answers) {
      for (const [i, answer] of a.answers.entries()) expect(answer, `${a.name} on Node ${NODE_MAJORS[i]}`).toEqual({ ok: true, result: null });
    }
    const seen = (name: string) => answers.filter((a) => a.name === name).reduce((n, a) => n + a.records, 0);
    const [orders, paymentsFn] = [functions[0]!, functions[1]!];
    expect([seen(orders.name), seen(paymentsFn.name)]).toEqual([3, 3]);
    for (const [i, major] of NODE_MAJORS.entries()) {
      const ordersOut = runtimes.get(orders.name)![i]!.output();
      for (const line of ['{"id":1}', '{"id":2}', '(tombstone)']) expect(ordersOut, `orders on Node ${major}`).toContain(line);
      const paymentsOut = runtimes.get(paymentsFn.name)![i]!.output();
      const total = (currency: string) => [...paymentsOut.matchAll(new RegExp(`${currency}: ([\\d.]+)`, 'g'))].reduce((n, m) => n + Number(m[1]), 0);
      expect([total('EUR'), total('USD')], `payments on Node ${major}:\n${paymentsOut}`).toEqual([12.5, 3]);
      console.log(`[artifacts] Node ${major}: ${answers.length} invocations answered by both runtimes; payments printed: ${paymentsOut.match(/payment totals.*/g)?.join(' | ')}`);
    }
  });
});
