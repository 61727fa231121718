/** Runs Sluice's CLI entry points as a user does (a real Node process), capturing output. */
import { spawn, type ChildProcess } from 'node:child_process';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const REPO = fileURLToPath(new URL('../..', import.meta.url));
const TSX = pathToFileURL(join(REPO, 'node_modules', 'tsx', 'dist', 'loader.mjs')).href;

export interface CliProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves when the output matches; rejects with the output so far after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs?: number): Promise<void>;
  exited: Promise<number | null>;
}

/** `tsx: false` runs JavaScript with plain node (the compiled package), without the TypeScript loader. */
export function runCli(script: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; tsx?: boolean } = {}): CliProcess {
  const loader = options.tsx === false ? [] : ['--import', TSX];
  const child = spawn(process.execPath, [...loader, isAbsolute(script) ? script : join(REPO, script), ...args], {
    cwd: options.cwd ?? REPO,
    env: options.env ?? process.env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    child,
    output: () => out,
    exited,
    waitForOutput: async (pattern, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (child.exitCode !== null) throw new Error(`process exited (${child.exitCode}) before printing ${pattern}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} after ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
