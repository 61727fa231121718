/**
 * Run a short-lived command to completion and capture its output, with a bounded run time.
 * Used for `java -version`, `mvn` and Kafka's StorageTool; the broker itself is spawned in broker.ts.
 */
import { spawn } from 'node:child_process';

export interface RunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export class CommandNotFoundError extends Error {
  constructor(readonly command: string, options: { cause: unknown }) {
    super(`command not found: ${command}`, options);
    this.name = 'CommandNotFoundError';
  }
}

/** `onLine`: each line of output as it arrives (stdout and stderr), for progress. */
export function runCapture(command: string, args: readonly string[], opts: { cwd?: string; timeoutMs: number; onLine?: (line: string) => void }): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    const partial = { out: '', err: '' };
    const lines = (which: 'out' | 'err', chunk: string) => {
      if (!opts.onLine) return;
      const parts = (partial[which] + chunk).split('\n');
      partial[which] = parts.pop() ?? '';
      for (const l of parts) opts.onLine(l.trim());
    };
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      stdout += chunk;
      lines('out', chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      lines('err', chunk);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, opts.timeoutMs);
    child.once('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(err.code === 'ENOENT' ? new CommandNotFoundError(command, { cause: err }) : err);
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      if (timedOut) {
        reject(new Error(`\`${command} ${args.join(' ')}\` did not finish within ${Math.round(opts.timeoutMs / 1000)} s and was killed.\n${stderr || stdout}`));
        return;
      }
      resolve({ code, signal, stdout, stderr });
    });
  });
}
