/** The Serverless CLI (osls, this repository's) run as a user runs it, in a service directory. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO } from './cli.ts';

export const OSLS = join(REPO, 'node_modules', 'osls', 'bin', 'serverless.js');

/**
 * For a `deploy` run in a test: credentials that are no one's, and every AWS request sent to a
 * proxy on loopback that refuses it (osls's SDK honours HTTPS_PROXY, not AWS_ENDPOINT_URL), with
 * no retries, so the deploy fails at its first request without leaving the machine.
 */
export const NO_AWS: NodeJS.ProcessEnv = {
  AWS_ACCESS_KEY_ID: 'AKIAIOSFODNN7EXAMPLE',
  AWS_SECRET_ACCESS_KEY: 'not-a-secret',
  AWS_PROFILE: '',
  AWS_EC2_METADATA_DISABLED: 'true',
  HTTPS_PROXY: 'http://127.0.0.1:9',
  HTTP_PROXY: 'http://127.0.0.1:9',
  SLS_AWS_REQUEST_MAX_RETRIES: '0',
};

export interface Sls {
  output(): string;
  exited: Promise<number | null>;
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<void>;
  signal(s: NodeJS.Signals): void;
}

/** `osls`: the CLI's entry, by default this repository's osls 3; a service's own for the installed package. */
export function sls(args: string[], cwd: string, stdin?: string, osls = OSLS): Sls {
  const env: NodeJS.ProcessEnv = { ...process.env, SLS_TELEMETRY_DISABLED: '1', FORCE_COLOR: '0' };
  delete env.KAFKA_BROKERS;
  const child = spawn(process.execPath, [osls, ...args], { cwd, env, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.end(stdin ?? '');
  let out = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return {
    output: () => out,
    exited,
    signal: (s) => child.kill(s),
    waitFor: async (pattern, timeoutMs = 60_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!pattern.test(out)) {
        if (child.exitCode !== null) throw new Error(`serverless ${args.join(' ')} exited (${child.exitCode}) before printing ${pattern}:\n${out}`);
        if (Date.now() > deadline) throw new Error(`no ${pattern} after ${timeoutMs} ms:\n${out}`);
        await new Promise((r) => setTimeout(r, 100));
      }
    },
  };
}
