/**
 * Programs the suite runs that come from the npm registry but do not belong in node_modules:
 * Node.js 22 and 24 (npm's `node` package ships each version's binary as an ordinary registry
 * package, node-<platform>-<arch>, which its install step fetches), and aws-lambda-ric, Lambda's
 * own Node.js runtime client, installed without its install scripts (they build a native HTTP
 * transport from C sources; the suite replaces that transport, tests/support/lambda-runtime.ts).
 * Each is installed once per user into the Sluice cache (~/.cache/sluice/<name>) with the
 * machine's npm, and reused while it answers as expected: `npm ci` stays as fast as before, and
 * a package named `node` never lands in node_modules/.bin, where it would replace the `node` of
 * every npm script.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { sluiceCacheRoot } from './cache.ts';

const INSTALL_TIMEOUT_MS = 10 * 60_000;
export const LAMBDA_RIC_VERSION = '4.0.2';

type Log = (line: string) => void;
const defaultLog: Log = (line) => console.error(`[npm-tools] ${line}`);

/** The Node.js majors test:node-versions runs on: SLUICE_NODE_VERSIONS (e.g. "22,24"), else 22 and 24. */
export function nodeVersionsUnderTest(env: NodeJS.ProcessEnv = process.env): number[] {
  return (env['SLUICE_NODE_VERSIONS'] ?? '22,24').split(',').map((v) => Number(v.trim())).filter((v) => v > 0);
}

/** The path of Node.js `major`'s binary (latest release of that major when first installed). */
export function ensureNode(major: number, log: Log = defaultLog): string {
  const dir = path.join(sluiceCacheRoot(process.env), `node-${major}`);
  const binary = path.join(dir, 'node_modules', 'node', 'bin', process.platform === 'win32' ? 'node.exe' : 'node');
  const answers = () => existsSync(binary) && spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout?.startsWith(`v${major}.`) === true;
  if (answers()) return binary;
  install(dir, [`node@${major}`], false, log);
  if (!answers()) throw new Error(`npm install node@${major} into ${dir} left no working Node.js ${major} at ${binary}.`);
  return binary;
}

/** The entry (index.mjs) of aws-lambda-ric, its JavaScript only. */
export function ensureLambdaRic(log: Log = defaultLog): string {
  const dir = path.join(sluiceCacheRoot(process.env), `aws-lambda-ric-${LAMBDA_RIC_VERSION}`);
  const entry = path.join(dir, 'node_modules', 'aws-lambda-ric', 'index.mjs');
  if (existsSync(entry)) return entry;
  install(dir, [`aws-lambda-ric@${LAMBDA_RIC_VERSION}`], true, log);
  if (!existsSync(entry)) throw new Error(`npm install aws-lambda-ric@${LAMBDA_RIC_VERSION} into ${dir} left no ${entry}.`);
  return entry;
}

/** Installs into a fresh directory beside `dir`, then moves it in place: an interrupted install leaves nothing half-done. */
function install(dir: string, specs: string[], ignoreScripts: boolean, log: Log): void {
  const partial = `${dir}.partial-${process.pid}`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(partial, { recursive: true });
  writeFileSync(path.join(partial, 'package.json'), JSON.stringify({ name: 'sluice-tool', private: true }));
  log(`installing ${specs.join(' ')} into ${dir} (once per user)`);
  const started = Date.now();
  const windows = process.platform === 'win32';
  const run = spawnSync(
    windows ? 'npm.cmd' : 'npm',
    ['install', '--no-save', '--no-package-lock', '--no-audit', '--no-fund', '--loglevel=error', ...(ignoreScripts ? ['--ignore-scripts'] : []), ...specs],
    { cwd: partial, encoding: 'utf8', timeout: INSTALL_TIMEOUT_MS, shell: windows },
  );
  if (run.status !== 0) {
    rmSync(partial, { recursive: true, force: true });
    throw new Error(`npm install ${specs.join(' ')} failed (${run.error?.message ?? `exit ${run.status}`}):\n${`${run.stdout}${run.stderr}`.trim().split('\n').slice(-15).join('\n')}`);
  }
  rmSync(dir, { recursive: true, force: true });
  renameSync(partial, dir);
  log(`installed ${specs.join(' ')} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}
