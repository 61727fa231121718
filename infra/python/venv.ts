/**
 * The suite's own Python environment: `.sluice/venv`, made with `python3 -m venv` from the pinned
 * infra/python/requirements.txt on first use, reused while that file is unchanged (its hash is
 * kept in the environment) and rebuilt when it changed. Tests run their Python tools from it,
 * never from whatever `python3` has installed.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SluiceError } from '../../framework/errors.ts';
import { runCapture } from '../kafka/run.ts';

const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REQUIREMENTS = path.join(HERE, 'requirements.txt');
export const DEFAULT_VENV = path.join(HERE, '..', '..', '.sluice', 'venv');
const MARKER = 'sluice-requirements.sha256';
const INSTALL_TIMEOUT_MS = 15 * 60_000;

export interface VenvOptions {
  dir?: string;
  requirements?: string;
  /** The interpreter that creates the environment (default python3). */
  python?: string;
  log?: (line: string) => void;
}

export function venvPython(dir: string): string {
  return process.platform === 'win32' ? path.join(dir, 'Scripts', 'python.exe') : path.join(dir, 'bin', 'python');
}

export function requirementsHash(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** Pure: reuse an environment only when its interpreter exists and it was built from these exact pins. */
export function isCurrent(o: { pythonExists: boolean; marker: string | undefined; wanted: string }): boolean {
  return o.pythonExists && o.marker?.trim() === o.wanted;
}

/** The environment's python, built or rebuilt first when needed. */
export async function ensureVenv(o: VenvOptions = {}): Promise<{ python: string; built: boolean; seconds: number }> {
  const dir = o.dir ?? DEFAULT_VENV;
  const requirements = o.requirements ?? REQUIREMENTS;
  const log = o.log ?? ((line: string) => console.log(`[python] ${line}`));
  const wanted = requirementsHash(readFileSync(requirements, 'utf8'));
  const python = venvPython(dir);
  const markerFile = path.join(dir, MARKER);
  const marker = existsSync(markerFile) ? readFileSync(markerFile, 'utf8') : undefined;
  if (isCurrent({ pythonExists: existsSync(python), marker, wanted })) return { python, built: false, seconds: 0 };

  const started = Date.now();
  log(marker ? `${shown(requirements)} changed: rebuilding ${shown(dir)}` : `creating ${shown(dir)} from ${shown(requirements)} (first run, about a minute or two)`);
  await rm(dir, { recursive: true, force: true });
  const created = await run(o.python ?? 'python3', ['-m', 'venv', dir], 120_000, () => undefined);
  if (created.code !== 0) {
    throw new SluiceError('PREREQUISITE_MISSING', `python3 -m venv ${dir} failed: ${lastLines(created.output)}. Install Python 3 with its venv module (Debian/Ubuntu: apt install python3-venv).`);
  }
  let collected = 0;
  const installed = await run(python, ['-m', 'pip', 'install', '--disable-pip-version-check', '--no-input', '--progress-bar', 'off', '-r', requirements], INSTALL_TIMEOUT_MS, (line) => {
    if (line.startsWith('Collecting') && ++collected % 20 === 0) log(`${collected} packages collected…`);
    if (/^Collecting \S+ \(from -r /.test(line)) log(line.replace(/ \(from -r .*$/, ''));
    else if (line.startsWith('ERROR')) log(line);
    else if (line.startsWith('Successfully installed')) log(`installing ${line.split(' ').length - 2} packages done`);
  });
  if (installed.code !== 0) {
    await rm(dir, { recursive: true, force: true });
    throw new SluiceError('PREREQUISITE_MISSING', `installing the suite's Python tools failed${failedPackage(installed.output)}: ${lastLines(installed.output)}. Check that PyPI is reachable and the pins in ${requirements} exist.`);
  }
  await writeFile(markerFile, `${wanted}\n`);
  const seconds = Math.round((Date.now() - started) / 1000);
  log(`ready in ${seconds} s: ${python}`);
  return { python, built: true, seconds };
}

/** Pure: the package pip names in its error, as " (package …)", or nothing. */
export function failedPackage(output: string): string {
  const m = /(?:Could not find a version that satisfies the requirement|No matching distribution found for|Failed to build|error: subprocess-exited-with-error[\s\S]*?Getting requirements to build wheel for) ([^\s(]+)/.exec(output);
  return m?.[1] ? ` (package ${m[1]})` : '';
}

/** A path relative to the working directory when inside it. */
function shown(p: string): string {
  const r = path.relative(process.cwd(), p);
  return r && !r.startsWith('..') ? r : p;
}

function lastLines(text: string, n = 6): string {
  return text.trim().split('\n').slice(-n).join(' | ');
}

/** Runs to the end; a command that cannot start or outlives its time is a failed run, not a throw. */
async function run(cmd: string, args: string[], timeoutMs: number, onLine: (line: string) => void): Promise<{ code: number | null; output: string }> {
  try {
    const r = await runCapture(cmd, args, { timeoutMs, onLine });
    return { code: r.code, output: r.stdout + r.stderr };
  } catch (e) {
    return { code: -1, output: e instanceof Error ? e.message : String(e) };
  }
}
