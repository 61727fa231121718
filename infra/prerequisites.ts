/**
 * What the test suite needs on the machine, checked once before any test runs, each missing
 * piece with one message that says what to install: Node 20+, Java 17+ (and Maven, only until
 * the Kafka jars are resolved once), Python 3 with venv. The Python tools themselves come from
 * infra/python/venv.ts.
 */
import { existsSync, readdirSync } from 'node:fs';
import { SluiceError } from '../framework/errors.ts';
import { LIB_DIR } from './kafka/broker.ts';
import { runCapture } from './kafka/run.ts';
import { checkJava } from './kafka/toolchain.ts';

export const MIN_NODE = 20;

export interface Probe {
  nodeVersion: string;
  /** Runs a command; code -1 when it could not be started. */
  run(command: string, args: string[]): Promise<{ code: number | null; output: string }>;
  jarsResolved: boolean;
}

export const systemProbe: Probe = {
  nodeVersion: process.versions.node,
  async run(command, args) {
    try {
      const r = await runCapture(command, args, { timeoutMs: 60_000 });
      return { code: r.code, output: r.stdout + r.stderr };
    } catch (e) {
      return { code: -1, output: e instanceof Error ? e.message : String(e) };
    }
  },
  jarsResolved: existsSync(LIB_DIR) && readdirSync(LIB_DIR).some((f) => f.startsWith('kafka_')),
};

/** Every problem found, each one line; empty when the machine has what the suite needs. */
export async function missingPrerequisites(probe: Probe = systemProbe, python = 'python3'): Promise<string[]> {
  const problems: string[] = [];
  const major = Number(probe.nodeVersion.split('.')[0]);
  if (!(major >= MIN_NODE)) problems.push(`Node.js ${MIN_NODE}+ is needed, this is ${probe.nodeVersion}: install a current LTS from https://nodejs.org or your package manager.`);
  try {
    await checkJava(process.env);
  } catch (e) {
    problems.push((e as Error).message);
  }
  if (!probe.jarsResolved) {
    const mvn = await probe.run('mvn', ['-v']);
    if (mvn.code !== 0) problems.push('Maven is needed once, to resolve the Kafka jars into the user cache (~/.cache/sluice, or SLUICE_CACHE_DIR): install it (apt install maven, brew install maven) and put `mvn` on PATH.');
  }
  const venv = await probe.run(python, ['-c', 'import venv, ensurepip, sys; assert sys.version_info >= (3, 9)']);
  if (venv.code !== 0) {
    problems.push(`Python 3.9+ with its venv module is needed for the suite's Python tools (\`${python} -c "import venv, ensurepip"\` failed: ${venv.output.trim().split('\n').pop()}): install python3 and python3-venv.`);
  }
  return problems;
}

export async function checkPrerequisites(probe?: Probe, python?: string): Promise<void> {
  const problems = await missingPrerequisites(probe, python);
  if (problems.length > 0) {
    throw new SluiceError('PREREQUISITE_MISSING', `The test suite cannot run on this machine yet:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

