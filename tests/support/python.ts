/** The interpreter of the suite's own Python environment (.sluice/venv, built by tests/setup/prerequisites.ts). */
import { spawn } from 'node:child_process';
import { inject } from 'vitest';

export function python(): string {
  return inject('python');
}

/**
 * Runs `script` with the suite's Python, `input` (JSON text) on its stdin, and resolves with its
 * stdout parsed as JSON. Rejects, naming `what` ("the librdkafka producer"), when Python cannot be
 * started, the script exits other than 0 (with what it wrote on stderr), or it has not ended in
 * `timeoutMs` (it is killed, and the error says what it had written): a hung peer fails the test
 * that called it with a reason, rather than the test's hook timing out in silence.
 */
export async function runPythonJson<T>(script: string, input: string, what: string, timeoutMs = 90_000): Promise<T> {
  const child = spawn(python(), [script], { stdio: ['pipe', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  child.stdin.end(input);
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill('SIGKILL');
  }, timeoutMs);
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', (e) => reject(new Error(`could not run ${python()} for ${what}: ${e.message}`)));
    child.on('exit', resolve);
  }).finally(() => clearTimeout(timer));
  if (timedOut) throw new Error(`${what} had not ended after ${timeoutMs / 1000} s and was killed; it wrote: ${err.trim() || '(nothing on stderr)'}`);
  if (code !== 0) throw new Error(`${what} exited ${code}: ${err.trim()}`);
  return JSON.parse(out) as T;
}
