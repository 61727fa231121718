/**
 * `npm test` after the build and the type check: prepares once what every tier needs (the
 * machine's prerequisites, the Python tools, Node.js 22 and 24, Lambda's runtime client, the
 * packed tarball, the shared broker and schema registry), then runs the lanes of lanes.ts side by
 * side, each tier's output prefixed with its name and kept in .sluice/suite/<tier>.log. At the end:
 * per tier its minutes and test counts, the slowest tenth of the files, and the failures again.
 * Writes .sluice/suite/times.json (docs/testing.md's tables come from it).
 *
 * `npm test -- integration engines` runs only the tiers named (their lanes keep their order).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createInterface } from 'node:readline';
import { checkPrerequisites } from '../prerequisites.ts';
import { ensureVenv } from '../python/venv.ts';
import { ensureLambdaRic, ensureNode, nodeVersionsUnderTest } from '../npm-tools.ts';
import { packRepository } from '../pack.ts';
import { testBroker, testRegistry } from '../../tests/support/services.ts';
import { TEST_NODE_MAJORS } from '../../tests/setup/tools.ts';
import { BUDGET_MS, LANES, type Lane, type Tier } from './lanes.ts';
import { counts, fileTable, fileTimes, minutes, slowest, tierTable, type FileTime, type TierResult, type VitestJson } from './report.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const OUT = path.join(ROOT, '.sluice', 'suite');
const children = new Set<ChildProcess>();

const say = (line: string) => console.log(`[suite] ${line}`);

async function main(argv: string[]): Promise<number> {
  const started = Date.now();
  const lanes = select(LANES, argv);
  const tiers = lanes.flatMap((l) => l.tiers.map((t) => t.name));
  say(`${tiers.join(', ')} in ${lanes.length} lanes side by side: ${lanes.map((l) => `${l.name} (${l.tiers.map((t) => t.name).join(' → ')})`).join(', ')}`);
  rmSync(OUT, { recursive: true, force: true });
  mkdirSync(OUT, { recursive: true });

  // Once, before any tier: each would otherwise build or start them itself, and two at once race.
  await checkPrerequisites();
  await ensureVenv({ log: say });
  // The integration tier's Lambda tests and test:node-versions use them: installed once, before both.
  for (const major of new Set([...nodeVersionsUnderTest(), ...TEST_NODE_MAJORS])) ensureNode(major, say);
  ensureLambdaRic(say);
  const packDir = mkdtempSync(path.join(tmpdir(), 'sluice-suite-'));
  // Once here, not by a test while other tiers read dist/; without prepare's build: npm test built dist/ just before.
  const tarball = packRepository(packDir, { build: false });
  // Each lane's broker and registry, started here: a tier's own setup would stop them at its end,
  // under the lane beside it that shares them (node-versions shares the kafkajs lane's).
  const services = startedServices;
  const laneEnv = (lane: Lane): NodeJS.ProcessEnv => ({ ...process.env, SLUICE_TEST_PORT_OFFSET: String(lane.portOffset) });
  const offsets = [...new Set(lanes.filter((l) => l.tiers.some((t) => t.services)).map((l) => l.portOffset))];
  let results: TierResult[] = [];
  try {
    // allSettled: one that fails to start must not leave another, still starting, unstopped.
    const starts = await Promise.allSettled(offsets.flatMap((offset) => {
      const env = { ...process.env, SLUICE_TEST_PORT_OFFSET: String(offset) };
      return [
        ...(process.env['KAFKA_BROKERS']?.trim() ? [] : [testBroker((l) => say(`kafka +${offset}: ${l}`), env)]),
        testRegistry((l) => say(`registry +${offset}: ${l}`), env),
      ];
    }));
    for (const r of starts) if (r.status === 'fulfilled') services.push(r.value);
    const failed = starts.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    say(`prepared in ${((Date.now() - started) / 1000).toFixed(0)} s; tarball ${path.basename(tarball)}`);
    const common = { SLUICE_TARBALL: tarball, SLUICE_SUITE_REPORT_DIR: OUT, FORCE_COLOR: process.env['FORCE_COLOR'] ?? '0' };
    results = (await Promise.all(lanes.map((lane) => runLane(lane, { ...laneEnv(lane), ...common })))).flat();
  } finally {
    rmSync(packDir, { recursive: true, force: true });
    await stopServices();
  }

  const wallMs = Date.now() - started;
  const files = results.flatMap((r) => readReports(r.tier).flatMap((rep) => fileTimes(r.tier, rep, ROOT)));
  writeFileSync(path.join(OUT, 'times.json'), JSON.stringify({ at: new Date().toISOString(), wallMs, tiers: results, files }, null, 2));
  for (const r of results.filter((x) => !x.ok)) printFailures(r.tier);
  console.log(`\n== the slowest tenth of the files\n${fileTable(slowest(files))}`);
  console.log(`\n== npm test\n${tierTable(results, wallMs, BUDGET_MS)}`);
  if (wallMs > BUDGET_MS) console.log(`the run took ${minutes(wallMs)} min, past its ${minutes(BUDGET_MS)}-minute budget: docs/testing.md says where the time goes`);
  return results.every((r) => r.ok) ? 0 : 1;
}

function select(lanes: Lane[], names: string[]): Lane[] {
  if (names.length === 0) return lanes;
  const known = lanes.flatMap((l) => l.tiers.map((t) => t.name));
  const unknown = names.filter((n) => !known.includes(n));
  if (unknown.length) throw new Error(`no tier ${unknown.join(', ')}; the tiers are ${known.join(', ')}`);
  return lanes.map((l) => ({ ...l, tiers: l.tiers.filter((t) => names.includes(t.name)) })).filter((l) => l.tiers.length > 0);
}

async function runLane(lane: Lane, env: NodeJS.ProcessEnv): Promise<TierResult[]> {
  const results: TierResult[] = [];
  for (const tier of lane.tiers) results.push(await runTier(lane.name, tier, env));
  return results;
}

function runTier(lane: string, tier: Tier, env: NodeJS.ProcessEnv): Promise<TierResult> {
  const started = Date.now();
  const report = path.join(OUT, `${tier.name}.json`);
  const args = tier.vitest ? [...tier.args, '--reporter=default', '--reporter=json', `--outputFile.json=${report}`] : tier.args;
  say(`${tier.name}: started (${lane} lane)`);
  const log = createWriteStream(path.join(OUT, `${tier.name}.log`));
  // In the runner's process group: a CI that kills the group at its time limit ends the tiers too.
  const child = spawn(process.execPath, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  for (const stream of [child.stdout!, child.stderr!]) {
    createInterface({ input: stream }).on('line', (line) => {
      log.write(`${line}\n`);
      console.log(`[${tier.name}] ${line}`);
    });
  }
  return new Promise((resolve) => {
    let done = false;
    const finish = (code: number | null, problem?: string) => {
      if (done) return;
      done = true;
      children.delete(child);
      log.end();
      const reports = readReports(tier.name);
      const ms = Date.now() - started;
      // A tier that says it passed but left no report ran no test anyone counted.
      const missing = reports.length === 0 ? 'no test report' : undefined;
      const ok = code === 0 && !missing;
      say(`${tier.name}: ${ok ? 'passed' : 'FAILED'} in ${minutes(ms)} min`);
      resolve({ tier: tier.name, lane, ok, ms, ...counts(reports), ...(ok ? {} : { problem: problem ?? (missing ? `exit ${code}, ${missing}` : `exit ${code}`) }) });
    };
    child.on('error', (e) => finish(null, e.message));
    // 'close', not 'exit': every line of its output has been read (and logged) by then.
    child.on('close', (code, signal) => finish(code, signal ? `killed by ${signal}` : undefined));
  });
}

/** A tier's JSON reports: `<tier>.json`, or test:node-versions's `<tier>-node<major>.json`. */
function readReports(tier: string): VitestJson[] {
  const names = [`${tier}.json`, ...nodeVersionsUnderTest().map((m) => `${tier}-node${m}.json`)];
  return names.map((n) => path.join(OUT, n)).filter((f) => existsSync(f)).map((f) => JSON.parse(readFileSync(f, 'utf8')) as VitestJson);
}

/** The failing tier's own summary again, unmixed with the other lanes' lines. */
function printFailures(tier: string): void {
  const lines = readFileSync(path.join(OUT, `${tier}.log`), 'utf8').split('\n');
  const from = lines.findIndex((l) => /Failed Tests \d+|Failed Suites \d+/.test(l));
  console.log(`\n== ${tier} failed: ${from >= 0 ? 'its failures' : 'the end of its output'} (all of it in .sluice/suite/${tier}.log)`);
  console.log((from >= 0 ? lines.slice(from) : lines.slice(-80)).join('\n'));
}

const startedServices: Array<{ startedHere: boolean; stop(): Promise<void> }> = [];
/** The brokers and registries started here: detached JVMs, which outlive the runner unless stopped. */
async function stopServices(): Promise<void> {
  const mine = startedServices.splice(0).filter((s) => s.startedHere);
  await Promise.allSettled(mine.map((s) => s.stop()));
}

function stopTiers(): void {
  for (const c of children) c.kill('SIGTERM');
}

for (const [signal, code] of [['SIGINT', 130], ['SIGTERM', 143]] as const) {
  process.on(signal, () => {
    say(`${signal}: stopping the tiers and the services started here`);
    stopTiers();
    void stopServices().finally(() => process.exit(code));
  });
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  async (e: unknown) => {
    console.error(`npm test: ${e instanceof Error ? e.message : String(e)}`);
    stopTiers();
    await stopServices();
    process.exit(1);
  },
);
