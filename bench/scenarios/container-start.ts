/**
 * 6. The poller container's start: from spawning its entry point to its "ready" line (joined
 * every group), run from the TypeScript sources through tsx (what the image ran before) and
 * compiled (dist/, what the image runs now: `npm run build`), alternating, against the bench
 * broker and a stand-in Lambda API, on the SLUICE_TRIGGERS `serverless package` would write.
 */
import { execFileSync, spawn } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { resolveService } from '../../framework/config/load.ts';
import { containerConfig, serializeContainerConfig, TRIGGERS_ENV } from '../../framework/plugin/deploy/container-config.ts';
import { createTopic, deleteTopics, uniqueName } from '../lib/kafka.ts';
import { round, spread } from '../lib/stats.ts';
import type { Figure, Scenario } from '../lib/types.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const COMPILED = join(REPO, 'dist', 'framework', 'cli', 'container.js');

export const containerStart: Scenario = async (ctx) => {
  // The compiled side is what the sources build to now, not whatever dist/ was left.
  ctx.log('building dist/ (npm run build)…');
  execFileSync(process.execPath, [join(REPO, 'infra', 'build', 'build.mjs')], { stdio: ['ignore', 'ignore', 'inherit'] });
  const lambda = createServer((req, res) => {
    const name = decodeURIComponent(/\/functions\/([^/]+)/.exec(req.url ?? '')?.[1] ?? '');
    req.resume().on('end', () => res.writeHead(200, { 'content-type': 'application/json' }).end(req.method === 'GET' ? JSON.stringify({ Configuration: { FunctionName: name } }) : 'null'));
  });
  await new Promise<void>((resolve) => lambda.listen(0, '127.0.0.1', resolve));
  const topic = uniqueName('container-start');
  await createTopic(ctx.kafka, topic, 3);
  try {
    const service = resolveService(
      { service: 'bench', provider: { name: 'aws', stage: 'prod' }, functions: { orders: { handler: 'f.handler', events: [{ sluice: { topic, bootstrapServers: ctx.brokers.join(',') } }] } } },
      { rootDir: REPO, env: {} },
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env, [TRIGGERS_ENV]: serializeContainerConfig(containerConfig(service, { orders: 'bench-prod-orders' })), SLUICE_HTTP_PORT: '0',
      AWS_REGION: 'eu-west-1', AWS_ACCESS_KEY_ID: 'bench', AWS_SECRET_ACCESS_KEY: 'bench', AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${(lambda.address() as AddressInfo).port}`,
    };
    const runs = ctx.quick ? 2 : 5;
    const sources: number[] = [];
    const compiled: number[] = [];
    for (let i = 0; i < runs; i++) {
      sources.push(await timeToReady(['--import', 'tsx', join(REPO, 'framework', 'cli', 'container.ts')], env));
      compiled.push(await timeToReady([COMPILED], env));
      ctx.log(`container start ${i + 1}/${runs}: sources ${Math.round(sources.at(-1)!)} ms, compiled ${Math.round(compiled.at(-1)!)} ms`);
    }
    const s = spread(sources);
    const c = spread(compiled);
    const figures: Figure[] = [
      { scenario: 'container start', figure: 'spawn → ready, sources through tsx (before), p50', value: `${Math.round(s.p50)} ms` },
      { scenario: 'container start', figure: 'spawn → ready, compiled dist/ (the image now), p50', value: `${Math.round(c.p50)} ms` },
      { scenario: 'container start', figure: 'compiled / sources', value: `${(c.p50 / s.p50).toFixed(2)}×` },
    ];
    return { figures, data: { runs, sourcesMs: sources.map((x) => round(x, 0)), compiledMs: compiled.map((x) => round(x, 0)) } };
  } finally {
    lambda.close();
    await deleteTopics(ctx.kafka, [topic]);
  }
};

/** Milliseconds from spawn to the "ready:" line; then SIGTERM and the exit awaited. */
function timeToReady(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(process.execPath, args, { cwd: REPO, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let readyAt: number | undefined;
    const onData = (d: Buffer) => {
      out += d.toString();
      if (readyAt === undefined && /ready: bench \(prod\)/.test(out)) {
        readyAt = performance.now() - started;
        child.kill('SIGTERM');
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('exit', () => {
      clearTimeout(timer);
      if (readyAt === undefined) reject(new Error(`the container exited before its ready line:\n${out}`));
      else resolve(readyAt);
    });
  });
}
