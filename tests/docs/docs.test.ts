/**
 * The documentation, run. Every fenced snippet of README.md and docs/*.md is run here, or carries
 * `<!-- not-run: <reason> -->` on the line before its fence (infra/docs/snippets.ts reads both):
 *
 * - `yaml`: validated by the code that makes `npm start` refuse a bad serverless.yml
 *   (resolveService); a fragment (a list of events, or `custom:` alone) inside a minimal service.
 * - `ts`: type-checked with tsc against the package's types (`serverless-sluice/handler` from
 *   dist/, as a service gets it), then invoked with an event Sluice's own event builder makes. A
 *   handler that answers with `batchItemFailures` needs, in the page's serverless.yml snippet that
 *   declares it, `functionResponseType: ReportBatchItemFailures` (else AWS and Sluice ignore them).
 * - `sh`: run, page by page, in a scratch copy of the example service against the suite's broker.
 *   A complete serverless.yml snippet (one with `service:` or `plugins:`) replaces the scratch
 *   service's from there on, and a `// functions/<name>.ts` snippet its handler file, as a reader
 *   following the page would. `npm start`, `sluice start` and `--watch` run until they are ready,
 *   stay up while the page's next commands run, and, when records were produced meanwhile, until
 *   their first invocation; then Ctrl-C (SIGINT to their process group), which must exit 0.
 * - `text` and `json` are output and samples; `dockerfile` must be marked.
 *
 * Links between pages and their anchors are checked. The test prints what ran and what is marked.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { resolveService } from '../../framework/config/load.ts';
import { isPlainObject } from '../../framework/config/path.ts';
import { anchors, commands, links, snippets, strayMarkers, type Snippet } from '../../infra/docs/snippets.ts';
import { withAdmin } from '../support/kafka.ts';

const REPO = resolve(import.meta.dirname, '..', '..');
const PAGES = ['README.md', ...readdirSync(join(REPO, 'docs')).filter((f) => f.endsWith('.md')).sort().map((f) => `docs/${f}`)];
const text = new Map(PAGES.map((p) => [p, readFileSync(join(REPO, p), 'utf8')]));
const all = PAGES.flatMap((p) => snippets(p, text.get(p)!));
const at = (s: Snippet) => `${s.page}:${s.line}`;
const RUN_LANGS = new Set(['sh', 'ts', 'yaml']);
const SAMPLE_LANGS = new Set(['text', 'json']);

const work = mkdtempSync(join(tmpdir(), 'sluice-docs-'));
const ran: Record<string, number> = {};
const count = (kind: string) => (ran[kind] = (ran[kind] ?? 0) + 1);
afterAll(() => {
  const marked = all.filter((s) => s.notRun !== undefined);
  const reasons = new Map<string, number>();
  for (const s of marked) reasons.set(s.notRun!, (reasons.get(s.notRun!) ?? 0) + 1);
  const samples = all.filter((s) => SAMPLE_LANGS.has(s.lang) && s.notRun === undefined).length;
  const total = Object.values(ran).reduce((a, b) => a + b, 0);
  console.log(
    `[docs] ${all.length} snippets in ${PAGES.length} pages: ${total} ran (${Object.entries(ran).map(([k, n]) => `${n} ${k}`).join(', ')}), ` +
      `${marked.length} marked not-run, ${samples} output/samples\n` +
      [...reasons].map(([r, n]) => `[docs]   not-run ×${n}: ${r}`).join('\n'),
  );
  rmSync(work, { recursive: true, force: true });
});

describe('the docs', () => {
  it('mark every snippet they do not run, and only snippets', () => {
    const problems = [
      ...all.filter((s) => !RUN_LANGS.has(s.lang) && !SAMPLE_LANGS.has(s.lang) && s.notRun === undefined).map((s) => `${at(s)}: a \`${s.lang || '(no language)'}\` block is neither run nor marked: give it a language (sh, ts, yaml; text or json for output) or a <!-- not-run: <reason> --> line`),
      ...PAGES.flatMap((p) => strayMarkers(p, text.get(p)!).map((l) => `${p}:${l}: a not-run marker must stand on the line right before a fence`)),
    ];
    expect(problems).toEqual([]);
  });

  it('open with what the page is for, and link only to pages and anchors that exist', () => {
    const problems: string[] = [];
    for (const page of PAGES.filter((p) => p.startsWith('docs/'))) {
      const lines = text.get(page)!.split('\n').filter((l) => !l.startsWith('<!--'));
      if (!/^# /.test(lines[0] ?? '') || lines[1] !== '' || !/\S/.test(lines[2] ?? '')) problems.push(`${page}: must start with a "# Title" and a line or two on what the page is for`);
    }
    const mapped = new Set(links('README.md', text.get('README.md')!).map((l) => l.target.split('#')[0]));
    for (const page of PAGES.filter((p) => p.startsWith('docs/') && !mapped.has(p))) problems.push(`README.md: its map of the docs does not link ${page}`);
    for (const link of PAGES.flatMap((p) => links(p, text.get(p)!))) {
      if (/^[a-z]+:/.test(link.target)) continue; // https:, mailto:
      const [file, anchor] = link.target.split('#') as [string, string | undefined];
      const target = file === '' ? link.page : relative(REPO, resolve(REPO, dirname(link.page), file));
      if (!existsSync(join(REPO, target))) problems.push(`${link.page}:${link.line}: ${link.target}: no such file`);
      else if (anchor && !anchors(readFileSync(join(REPO, target), 'utf8')).has(anchor)) problems.push(`${link.page}:${link.line}: ${link.target}: no heading makes #${anchor} in ${target}`);
    }
    expect(problems).toEqual([]);
  });

  it('give serverless.yml snippets that the configuration check accepts', () => {
    const problems: string[] = [];
    for (const s of all.filter((x) => x.lang === 'yaml' && x.notRun === undefined)) {
      const doc = serviceOf(s);
      if (typeof doc === 'string') problems.push(doc);
      else {
        const error = checkService(s, doc);
        if (error) problems.push(error);
        count('yaml validated');
      }
    }
    expect(problems).toEqual([]);
  });

  it('give handlers that type-check, run on a real event, and answer as their trigger expects', () => {
    const handlers = all.filter((s) => s.lang === 'ts' && s.notRun === undefined);
    const dir = scratch('handlers');
    const files = handlers.map((s) => {
      const file = join(dir, 'snippets', `${s.page.replace(/\W/g, '_')}_L${s.line}.ts`);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, s.code + '\n');
      return file;
    });
    const tsc = spawnSync(process.execPath, [join(REPO, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', dir], { encoding: 'utf8' });
    const typeErrors = (tsc.stdout + tsc.stderr).trim();
    expect(typeErrors, `tsc on the docs' handlers (snippets/<page>_L<line>.ts):\n${typeErrors}`).toBe('');

    const invoked = spawnSync(process.execPath, ['--import', 'tsx', join(REPO, 'tests', 'docs', 'invoke.ts'), ...files], { cwd: dir, encoding: 'utf8', timeout: 60_000 });
    const results = invoked.stdout.split('\n').filter((l) => l.startsWith('{"file":')).map((l) => JSON.parse(l) as { file: string; result?: unknown; error?: string });
    expect(results.length, `invoke.ts:\n${invoked.stdout}\n${invoked.stderr}`).toBe(files.length);
    const problems: string[] = [];
    handlers.forEach((s, i) => {
      const r = results[i]!;
      count('ts type-checked and invoked');
      if (r.error !== undefined) return problems.push(`${at(s)}: the handler threw on an event of one JSON record: ${r.error}`);
      if (isPlainObject(r.result) && Array.isArray(r.result.batchItemFailures)) {
        const missing = reportingTrigger(s);
        if (missing) problems.push(missing);
      }
    });
    expect(problems).toEqual([]);
  });

  for (const page of PAGES.filter((p) => all.some((s) => s.page === p && s.lang === 'sh' && s.notRun === undefined))) {
    it(`run the commands of ${page}`, async () => {
      await runPage(page);
    });
  }
});

/** A `yaml` snippet as a whole serverless.yml (a fragment inside a minimal service), or what is wrong. */
function serviceOf(s: Snippet): Record<string, unknown> | string {
  let value: unknown;
  try {
    value = parse(s.code);
  } catch (e) {
    return `${at(s)}: not YAML: ${(e as Error).message}`;
  }
  const base = { service: 'docs', provider: { name: 'aws', runtime: 'nodejs22.x' } };
  if (Array.isArray(value) && value.every((e) => isPlainObject(e) && ['sluice', 'kafka', 'msk'].some((k) => k in e))) {
    return { ...base, functions: { orders: { handler: 'functions/orders.handler', events: value } } };
  }
  if (isPlainObject(value) && ['service', 'provider', 'functions', 'custom', 'plugins'].some((k) => k in value)) return { ...base, ...value };
  return `${at(s)}: not a serverless.yml snippet (a service, its custom: or a list of events): run it or mark it <!-- not-run: <reason> -->`;
}

function checkService(s: Snippet, doc: Record<string, unknown>): string | undefined {
  try {
    resolveService(doc, { rootDir: REPO, file: at(s), env: { KAFKA_BROKERS: inject('kafkaBrokers') } });
    return undefined;
  } catch (e) {
    return (e as Error).message;
  }
}

/** A complete serverless.yml snippet: one a reader would save as their service's file. */
const isComplete = (s: Snippet) => s.lang === 'yaml' && s.notRun === undefined && /^(service|plugins):/m.test(s.code);
const handlerFile = (s: Snippet) => /^\/\/ (functions\/[\w-]+\.ts)\s*$/m.exec(s.code.split('\n')[0] ?? '')?.[1];

/**
 * A handler that answers with batchItemFailures: the page's nearest serverless.yml snippet before
 * it that declares its function must set functionResponseType on each of its sluice triggers.
 */
function reportingTrigger(s: Snippet): string | undefined {
  const file = handlerFile(s);
  const handler = file?.replace(/\.ts$/, '.handler');
  const declaring = all
    .filter((y) => y.page === s.page && y.lang === 'yaml' && y.line < s.line)
    .reverse()
    .map((y) => ({ y, doc: serviceOf(y) }))
    .find(({ doc }) => typeof doc !== 'string' && Object.values((doc.functions ?? {}) as Record<string, { handler?: string }>).some((f) => f.handler === handler));
  const where = `${at(s)}: the handler answers with batchItemFailures`;
  if (!declaring) return `${where}, but no serverless.yml snippet before it on ${s.page} declares ${handler ?? 'its function'} with functionResponseType: ReportBatchItemFailures`;
  const doc = declaring.doc as { functions: Record<string, { handler?: string; events?: Array<Record<string, unknown>> }> };
  const fn = Object.values(doc.functions).find((f) => f.handler === handler)!;
  const lacking = (fn.events ?? []).filter((e) => isPlainObject(e.sluice) && e.sluice.functionResponseType !== 'ReportBatchItemFailures');
  return lacking.length === 0
    ? undefined
    : `${where}, but its trigger at ${at(declaring.y)} does not set functionResponseType: ReportBatchItemFailures, so AWS and Sluice would ignore them and commit the records as done`;
}

/** A directory that resolves packages as the repository does, with a tsconfig for handlers. */
function scratch(name: string): string {
  const dir = join(work, name);
  mkdirSync(dir, { recursive: true });
  symlinkSync(join(REPO, 'node_modules'), join(dir, 'node_modules'), 'dir');
  const scripts = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')).scripts as Record<string, string>;
  const absolute = Object.fromEntries(Object.entries(scripts).map(([k, v]) => [k, v.replace(/(^|\s)((?:framework|infra|bench)\/)/g, `$1${REPO}/$2`)]));
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: `docs-${name}`, private: true, type: 'module', scripts: absolute }, null, 2));
  writeFileSync(
    join(dir, 'tsconfig.json'),
    JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'nodenext', moduleResolution: 'nodenext', strict: true, noEmit: true, skipLibCheck: true, types: ['node'] }, include: ['snippets/**/*.ts', 'functions/**/*.ts'] }),
  );
  return dir;
}

interface Running {
  command: string;
  child: ChildProcess;
  output(): string;
  producedSince: boolean;
}

const LONG_RUNNING = /^(npm start|npx serverless sluice start)\b|--watch\b/;

async function runPage(page: string): Promise<void> {
  const dir = scratch(page.replace(/\W/g, '_'));
  cpSync(join(REPO, 'serverless.yml'), join(dir, 'serverless.yml'));
  cpSync(join(REPO, 'functions'), join(dir, 'functions'), { recursive: true });
  const steps = all.filter((s) => s.page === page && s.notRun === undefined);
  await createTopics(page, steps);
  const env: NodeJS.ProcessEnv = { ...process.env, KAFKA_BROKERS: inject('kafkaBrokers'), SLUICE_HTTP_PORT: '0', SLS_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' };
  let running: Running | undefined;
  try {
    for (const s of steps) {
      if (isComplete(s)) writeFileSync(join(dir, 'serverless.yml'), stringify(serviceOf(s)));
      const file = s.lang === 'ts' ? handlerFile(s) : undefined;
      if (file) writeFileSync(join(dir, file), s.code + '\n');
      if (s.lang !== 'sh') continue;
      for (const command of commands(s.code)) {
        if (LONG_RUNNING.test(command)) {
          const previous = running;
          running = undefined;
          if (previous) await stop(previous, at(s));
          running = await start(command, dir, env, at(s));
        } else {
          await run(command, dir, env, at(s));
          if (running && /\bproduce\b/.test(command)) running.producedSince = true;
        }
        count('sh commands run');
      }
    }
  } finally {
    const last = running;
    running = undefined;
    if (last) await stop(last, page);
  }
}

/** The topics a page's services and commands use: on the suite's broker they must exist beforehand. */
async function createTopics(page: string, steps: Snippet[]): Promise<void> {
  const sources = [readFileSync(join(REPO, 'serverless.yml'), 'utf8'), ...steps.filter((s) => s.lang === 'yaml' || s.lang === 'sh').map((s) => s.code)];
  const topics = new Set<string>();
  for (const src of sources) {
    for (const m of src.matchAll(/\btopic: ([\w.-]+)|kafka:\/\/([\w.-]+)|produce -- ([\w.-]+)|produce -t ([\w.-]+)/g)) topics.add((m[1] ?? m[2] ?? m[3] ?? m[4])!);
  }
  await withAdmin((a) => a.ensureTopics([...topics].map((topic) => ({ topic, partitions: 3 }))));
  console.log(`[docs] ${page}: topics ${[...topics].join(', ')}`);
}

function spawnShell(command: string, dir: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output(): string } {
  const child = spawn('bash', ['-c', command], { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return { child, output: () => out };
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((done) => (child.exitCode !== null || child.signalCode !== null ? done(child.exitCode) : child.once('exit', (code) => done(code))));

async function run(command: string, dir: string, env: NodeJS.ProcessEnv, where: string): Promise<void> {
  const started = Date.now();
  const p = spawnShell(command, dir, env);
  const timer = setTimeout(() => process.kill(-p.child.pid!, 'SIGKILL'), 120_000);
  const code = await exited(p.child);
  clearTimeout(timer);
  console.log(`[docs] ${where} $ ${command} -> exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  expect(code, `${where}: \`${command}\` failed:\n${p.output()}`).toBe(0);
}

async function start(command: string, dir: string, env: NodeJS.ProcessEnv, where: string): Promise<Running> {
  const started = Date.now();
  const p = spawnShell(command, dir, env);
  const ready = /--watch\b/.test(command) ? /\S/ : /ready\./;
  await waitFor(p, ready, 120_000, `${where}: \`${command}\``);
  console.log(`[docs] ${where} $ ${command} -> ready in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  return { command, child: p.child, output: p.output, producedSince: false };
}

/**
 * Waits for the first invocation when records were produced meanwhile, then Ctrl-C: SIGINT to the
 * process group, as a terminal sends it. npm and npx die of it, as in a terminal; the poller must
 * finish, say `stopped` (its clean exit, code 0) and leave nothing of the group running.
 */
async function stop(r: Running, where: string): Promise<void> {
  if (r.producedSince) await waitFor(r, /✓ \S+ \S+ \d+ ok/, 60_000, `${where}: \`${r.command}\`, after records were produced, invoking a handler`);
  const before = r.output().length;
  process.kill(-r.child.pid!, 'SIGINT');
  const deadline = Date.now() + 60_000;
  const alive = () => {
    try {
      process.kill(-r.child.pid!, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (alive() && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
  if (alive()) process.kill(-r.child.pid!, 'SIGKILL');
  const after = r.output().slice(before);
  console.log(`[docs] ${where} $ ${r.command} -> Ctrl-C: ${/\bstopped\b/.test(after) ? 'stopped' : 'did not say stopped'}`);
  expect(/\bstopped\b/.test(after) && !/\b(error|ERROR)\b/.test(after), `${where}: \`${r.command}\` did not stop cleanly on Ctrl-C:\n${r.output()}`).toBe(true);
}

async function waitFor(p: { child: ChildProcess; output(): string }, pattern: RegExp, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!pattern.test(p.output())) {
    if (p.child.exitCode !== null) throw new Error(`${what} exited (${p.child.exitCode}) before printing ${pattern}:\n${p.output()}`);
    if (Date.now() > deadline) {
      process.kill(-p.child.pid!, 'SIGKILL');
      throw new Error(`${what}: no ${pattern} after ${timeoutMs} ms:\n${p.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
