/**
 * Sluice as a user gets it: `npm pack` of this repository, installed into a new service that the
 * test creates with the README's install line (`npm install --save-dev serverless-sluice osls`,
 * the tarball for serverless-sluice), once with osls 3.77.1 and once with whatever `osls` the
 * registry serves today (4.x), each the service's own CLI. There `serverless sluice start` handles
 * and commits records sent with `serverless sluice produce` (stdin, and values after the options;
 * nothing to send is an error), `status` shows the member, `tail --exit` prints the 5 and ends,
 * `serverless sluice lag` shows lag 0,
 * `tsc` type-checks the handler (importing the helpers by name) with plain strict options, and
 * `serverless package`, without an image, writes the poller's template, cfn-lint clean, and the function's zip,
 * which Lambda's runtime client loads and runs (tests/support/lambda-runtime.ts) with the
 * package's helpers bundled in. `npm run test:node-versions` runs this file on Node.js 22 and 24.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { TriggerLag } from '../../framework/cli/lag-report.ts';
import { buildEvent } from '../../framework/event/build-event.ts';
import { ensureNode } from '../../infra/npm-tools.ts';
import { filesIn, packagedFunctions, unpack } from '../support/artifacts.ts';
import { cfnLint } from '../support/cfn-lint.ts';
import { REPO } from '../support/cli.ts';
import { brokers, createTopic, deleteTopic, uniqueName, waitFor } from '../support/kafka.ts';
import { LocalLambda } from '../support/lambda-runtime.ts';
import { sls, type Sls } from '../support/sls.ts';

/** The osls each service installs: the last 3.x, and the README's line as written (today's major, 4). */
const CLIS = [
  { spec: 'osls@3.77.1', major: 3 },
  { spec: 'osls', major: 4 },
] as const;

const work = mkdtempSync(join(tmpdir(), 'sluice-installed-'));
const topics: string[] = [];
const running: Sls[] = [];
const cleanup: Array<() => Promise<void>> = [];
afterAll(async () => {
  running.forEach((s) => s.signal('SIGKILL'));
  await Promise.all(cleanup.map((c) => c()));
  await Promise.all(topics.map(deleteTopic));
  rmSync(work, { recursive: true, force: true });
});

const HANDLER = `import { appendFileSync } from 'node:fs';
import { decodeRecord, eachRecord, type KafkaBatchResponse, type SelfManagedKafkaEvent } from 'serverless-sluice/handler';

interface Order { n: number }

export async function handler(event: SelfManagedKafkaEvent): Promise<KafkaBatchResponse> {
  return eachRecord(event, async (record) => {
    const order = decodeRecord<Order>(record).value;
    appendFileSync(process.env.RECORD_FILE!, JSON.stringify({ partition: record.partition, offset: record.offset, n: order?.n }) + '\\n');
  });
}
`;

/**
 * The arguments of the README's install line (`npm install … serverless-sluice osls`, the one
 * line the docs test leaves to this file), with the tarball for serverless-sluice and `spec` for
 * osls: a change to that line is what this test installs.
 */
function installArgs(tarball: string, spec: string): string[] {
  const readme = readFileSync(join(REPO, 'README.md'), 'utf8');
  const line = /^npm install .*\bserverless-sluice\b.*$/m.exec(readme)?.[0];
  expect(line, 'README.md has no `npm install … serverless-sluice …` line').toBeDefined();
  const words = line!.replace(/#.*$/, '').trim().split(/\s+/).slice(1);
  expect(words, `README.md's install line installs serverless-sluice and osls: ${line}`).toEqual(expect.arrayContaining(['install', 'serverless-sluice', 'osls']));
  return words.map((w) => (w === 'serverless-sluice' ? tarball : w === 'osls' ? spec : w));
}

/** The `frameworkVersion` of the README's serverless.yml, which must work with the osls its install line installs. */
function readmeFrameworkVersion(): string {
  const version = /^frameworkVersion: '([^']+)'/m.exec(readFileSync(join(REPO, 'README.md'), 'utf8'))?.[1];
  expect(version, "README.md's serverless.yml has no frameworkVersion: '…'").toBeDefined();
  return version!;
}

/** Runs a command to its end; returns its stdout (the build's progress goes to stderr). */
function run(command: string, args: string[], cwd: string, timeoutMs = 180_000): string {
  const r = spawnSync(command, args, { cwd, encoding: 'utf8', timeout: timeoutMs, env: { ...process.env, npm_config_audit: 'false', npm_config_fund: 'false' } });
  expect(r.status, `${command} ${args.join(' ')}:\n${r.stdout}${r.stderr}`).toBe(0);
  return r.stdout;
}

let tarball: string;

beforeAll(() => {
  // Packed once before the tier's files run (tests/setup/tarball.ts), or by npm test for every tier:
  // packing here would rebuild dist/ under the files running beside this one.
  tarball = inject('tarball');
  const paths = run('tar', ['-tzf', tarball], REPO).split('\n').filter(Boolean).map((p) => p.replace(/^package\//, ''));
  console.log(`[package] ${basename(tarball)}: ${paths.length} files, ${(statSync(tarball).size / 1024).toFixed(0)} KiB packed`);
  expect(paths.filter((p) => /(^|\/)(tests?|bench|fixtures)\/|\.test\.|(^|\/)functions\//.test(p))).toEqual([]);
  expect(paths.filter((p) => p.endsWith('.ts') && !p.endsWith('.d.ts'))).toEqual([]); // no TypeScript sources: nothing needs tsx
  expect(paths).toEqual(expect.arrayContaining(['package.json', 'README.md', 'dist/framework/plugin/index.cjs', 'dist/framework/handler/index.js', 'dist/framework/handler/index.d.ts', 'dist/infra/kafka/pom.xml']));
}, 180_000);

describe.each(CLIS)('the installed package, in a service of its own, with $spec', ({ spec, major }) => {
  it(`installs by name with the README's line, runs, commits, type-checks and packages (Node.js ${process.versions.node})`, async () => {
    const topic = uniqueName('installed');
    topics.push(topic);
    const dir = join(work, `shop-osls${major}`);
    mkdirSync(join(dir, 'functions'), { recursive: true });
    const recordFile = join(dir, 'seen.jsonl');
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'shop', private: true, type: 'module' }, null, 2));
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, module: 'nodenext', target: 'es2022', noEmit: true }, include: ['functions'] }, null, 2));
    writeFileSync(join(dir, 'functions', 'orders.ts'), HANDLER);
    writeFileSync(
      join(dir, 'serverless.yml'),
      `service: shop\nframeworkVersion: '${readmeFrameworkVersion()}'\nconfigValidationMode: error\nplugins:\n  - serverless-sluice\nprovider:\n  name: aws\n  runtime: nodejs24.x\n  stage: prod\n  region: eu-west-1\n` +
        `functions:\n  orders:\n    handler: functions/orders.handler\n    environment:\n      RECORD_FILE: ${recordFile}\n    events:\n` +
        // A group of its own: the default, sluice-shop-orders, is also the group of the other osls's
        // service and of the other lane's run of this file on the same broker (CI-26: joined with no
        // partitions, the other group's members holding them, and no record handled).
        `      - sluice:\n          topic: ${topic}\n          consumerGroupId: ${uniqueName('installed-group')}\n          maximumBatchingWindow: 0\n          bootstrapServers: ${brokers().join(',')}\n`,
    );
    // The README's install line as written, with the tarball for serverless-sluice; from npm's cache where it can.
    run('npm', [...installArgs(tarball, spec), '--prefer-offline', '--no-audit', '--no-fund'], dir, 300_000);
    const installed = JSON.parse(readFileSync(join(dir, 'node_modules', 'osls', 'package.json'), 'utf8')) as { version: string };
    console.log(`[installed] ${spec} -> osls ${installed.version} on Node.js ${process.versions.node}`);
    expect(installed.version.split('.')[0], `\`npm install osls\` now installs osls ${installed.version}: check Sluice with it, then update CLIS, the README's install line and frameworkVersion`).toBe(String(major));
    expect(existsSync(join(dir, 'node_modules', 'serverless', 'package.json')), 'serverless (v4) must never be installed').toBe(false);
    // Sluice brings no TypeScript tooling (osls itself depends on tsx, for serverless.ts files).
    const sluice = JSON.parse(readFileSync(join(dir, 'node_modules', 'serverless-sluice', 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
    expect(Object.keys(sluice.dependencies).filter((d) => ['tsx', 'typescript', 'esbuild-register'].includes(d))).toEqual([]);
    expect(existsSync(join(dir, 'node_modules', 'typescript'))).toBe(false);
    const cli = join(dir, 'node_modules', 'osls', 'bin', 'serverless.js');

    // The handler type-checks with plain strict options against the package's declarations.
    run(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], dir);

    await createTopic(topic, 2);
    const start = sls(['sluice', 'start'], dir, undefined, cli);
    running.push(start);
    await start.waitFor(/ready\. Send records with: .*serverless sluice produce --topic/, 120_000);
    const produce = sls(['sluice', 'produce', '--topic', topic], dir, '{"key":"a","value":{"n":1}}\n{"key":"b","value":{"n":2}}\n{"key":"c","value":{"n":3}}\n', cli);
    expect(await produce.exited, produce.output()).toBe(0);
    const handled = () => (existsSync(recordFile) ? readFileSync(recordFile, 'utf8').trim().split('\n').filter(Boolean) : []);
    const seenAtLeast = (n: number) =>
      waitFor(`${n} records handled`, () => handled().length >= n, 60_000).catch((e: unknown) => {
        throw new Error(`${(e as Error).message}\nhandled: ${handled().join(' ')}\npoller:\n${start.output()}`);
      });
    await seenAtLeast(3);
    // The README's form: values after the options.
    const positional = sls(['sluice', 'produce', '-t', topic, '{"n":4}', '{"n":5}'], dir, '', cli);
    expect(await positional.exited, positional.output()).toBe(0);
    expect(positional.output()).toContain(`sent 2 records to ${topic}`);
    await seenAtLeast(5);
    expect([...new Set(handled().map((l) => (JSON.parse(l) as { n: number }).n))].sort(), `${handled().join('\n')}\n${start.output()}`).toEqual([1, 2, 3, 4, 5]);
    if (handled().length > 5) console.log(`[installed] a record handled twice (at least once, after a rebalance?):\n${handled().join('\n')}\n${start.output()}`);
    // The console is served from the package's own bundle (dist/console), with the invocations just run.
    const consoleUrl = /console: (http:\/\/\S+)/.exec(start.output())?.[1];
    expect(consoleUrl, start.output()).toBeDefined();
    const app = await fetch(`${consoleUrl}console/app.js`);
    expect(app.status).toBe(200);
    expect(app.headers.get('content-type')).toMatch(/javascript/);
    const listed = (await (await fetch(`${consoleUrl}api/invocations`)).json()) as { invocations: Array<{ keys: string[] }> };
    expect(listed.invocations.flatMap((i) => i.keys)).toEqual(expect.arrayContaining(['a', 'b', 'c']));
    // Nothing to send is an error saying what to give, in this door's words.
    const nothing = sls(['sluice', 'produce', '-t', topic], dir, '', cli);
    expect(await nothing.exited, nothing.output()).not.toBe(0);
    expect(nothing.output()).toContain("stdin held no records. Nothing to send: give values after the options (npx serverless sluice produce --topic <topic> '{\"id\":1}')");
    const status = sls(['sluice', 'status'], dir, undefined, cli);
    expect(await status.exited, status.output()).toBe(0);
    expect(status.output()).toMatch(new RegExp(`topic ${topic}, group \\S+ on `));
    expect(status.output()).toMatch(/members 1:/);
    const tail = sls(['sluice', 'tail', '--topic', topic, '--from-beginning', '--exit', '--json'], dir, undefined, cli);
    expect(await tail.exited, tail.output()).toBe(0);
    expect(tail.output().split('\n').filter((l) => l.startsWith('{"topic"'))).toHaveLength(5);

    let report: TriggerLag | undefined;
    await waitFor('lag 0 with 5 committed', async () => {
      const lag = sls(['sluice', 'lag', '--json'], dir, undefined, cli);
      if ((await lag.exited) !== 0) return false;
      [report] = JSON.parse(lag.output().slice(lag.output().indexOf('['), lag.output().lastIndexOf(']') + 1)) as TriggerLag[];
      return report!.totalLag === 0 && report!.partitions.reduce((n, p) => n + Math.max(p.committed, 0), 0) === 5;
    }, 60_000, 500);
    start.signal('SIGINT');
    expect(await start.exited, start.output()).toBe(0);

    const out = join(dir, 'out');
    // Without an image, as the README's serverless.yml: the image is a stack parameter a deploy must give.
    const pack = sls(['package', '--package', out], dir, undefined, cli);
    expect(await pack.exited, pack.output()).toBe(0);
    expect(pack.output()).toContain("Sluice: the template needs SluiceImage (the poller's image)");
    const template = JSON.parse(readFileSync(join(out, 'cloudformation-template-update-stack.json'), 'utf8')) as { Resources: Record<string, { Type: string }>; Parameters: Record<string, object> };
    expect(template.Resources.SluiceService?.Type).toBe('AWS::ECS::Service');
    expect(template.Parameters.SluiceImage).not.toHaveProperty('Default');
    expect(Object.values(template.Resources).some((r) => r.Type === 'AWS::Lambda::EventSourceMapping')).toBe(false);
    cfnLint(join(out, 'cloudformation-template-update-stack.json'));

    // The function's zip: the bundle and its map, nothing of the service's node_modules; Lambda's runtime client runs it.
    const [fn] = packagedFunctions(out);
    const task = unpack(fn!.zip);
    cleanup.push(async () => rmSync(task, { recursive: true, force: true }));
    expect(filesIn(task)).toEqual(['functions/orders.mjs', 'functions/orders.mjs.map']);
    const lambda = await LocalLambda.start({ taskRoot: task, handler: fn!.handler, node: ensureNode(24), functionName: fn!.name, runtime: fn!.runtime, environment: fn!.environment });
    cleanup.push(() => lambda.stop());
    const record = { topic, partition: 1, offset: 7, timestamp: Date.now(), timestampType: 'CREATE_TIME' as const, key: Buffer.from('d'), value: Buffer.from('{"n":4}'), headers: [] };
    expect(await lambda.invoke(buildEvent([record], { bootstrapServers: brokers().join(',') })), lambda.output()).toEqual({ ok: true, result: { batchItemFailures: [] } });
    expect(readFileSync(recordFile, 'utf8')).toContain(JSON.stringify({ partition: 1, offset: 7, n: 4 }));
    // A hang guard, not a speed target: the install alone may take its 300 s; a quiet CI run takes about
    // 125 s in all, and one beside development runs on the same two cores passed the project's 180 s.
  }, 420_000);
});
