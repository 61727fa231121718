/**
 * The bench side of a poller process (bench/lib/poller-process.ts): forks it, follows what it
 * reports, samples its RSS from /proc, and stops it (SIGKILL only if a clean stop hangs).
 */
import { fork, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { FromPoller, InvocationSpan, PollerProcessOptions, ToPoller } from './poller-process.ts';

const ENTRY = fileURLToPath(new URL('./poller-process.ts', import.meta.url));

export interface Join {
  at: number;
  memberId: string;
  assignment: Record<string, number[]>;
}

export class PollerChild {
  readonly spawnedAt = Date.now();
  readonly joins: Join[] = [];
  readonly rebalances: number[] = [];
  /** With `timeline`: every invocation that returned, in the order they did. */
  readonly invocations: InvocationSpan[] = [];
  /** When the process ended (it had left its group by then). */
  exitedAt: number | undefined;
  records = 0;
  /** Invocations that succeeded so far (its last progress report). */
  chunks = 0;
  memory = { heapUsed: 0, external: 0, arrayBuffers: 0 };
  /** With `console`: where its page is served (known once ready). */
  consoleUrl: string | undefined;
  readonly ready: Promise<void>;
  private readonly child: ChildProcess;
  private readonly exited: Promise<number | null>;
  private samplesWaiter: ((s: Array<[number, number]>) => void) | undefined;
  private markWaiter: ((m: { records: number; cpuMicros: number; gcMs: number }) => void) | undefined;

  /** `nodeArgs`: extra Node options, e.g. `--cpu-prof` (bench/profile.ts). */
  constructor(options: PollerProcessOptions, nodeArgs: string[] = []) {
    this.child = fork(ENTRY, [], {
      execArgv: [...nodeArgs, '--import', 'tsx'],
      env: { ...process.env, BENCH_POLLER: JSON.stringify(options) },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.exited = new Promise((resolve) =>
      this.child.once('exit', (code) => {
        this.exitedAt = Date.now();
        resolve(code);
      }));
    this.ready = new Promise<void>((resolve, reject) => {
      this.child.on('message', (m: FromPoller) => {
        if (m.type === 'ready') {
          this.consoleUrl = m.consoleUrl;
          resolve();
        }
        else if (m.type === 'join') this.joins.push({ at: m.at, memberId: m.memberId, assignment: m.assignment });
        else if (m.type === 'rebalance') this.rebalances.push(m.at);
        else if (m.type === 'invocation') this.invocations.push({ partition: m.partition, first: m.first, last: m.last, start: m.start, end: m.end, ok: m.ok });
        else if (m.type === 'progress') {
          this.records = m.records;
          this.chunks = m.chunks;
          this.memory = { heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
        } else if (m.type === 'samples') this.samplesWaiter?.(m.latency);
        else if (m.type === 'mark') this.markWaiter?.({ records: m.records, cpuMicros: m.cpuMicros, gcMs: m.gcMs });
      });
      void this.exited.then((code) => reject(new Error(`bench poller ${this.child.pid} exited with ${code} before it was ready`)));
    });
    // Callers that never await `ready` (scale-out) check `hasExited` instead.
    this.ready.catch(() => undefined);
  }

  get hasExited(): boolean {
    return this.child.exitCode !== null || this.child.signalCode !== null;
  }

  get pid(): number {
    return this.child.pid!;
  }

  /** Partitions of the last join, as `topic|partition`. */
  owned(): string[] {
    const last = this.joins.at(-1);
    return last ? Object.entries(last.assignment).flatMap(([t, ps]) => ps.map((p) => `${t}|${p}`)) : [];
  }

  /** Resident set size of the whole process (main thread, handler workers and all), in bytes. */
  rssBytes(): number | undefined {
    try {
      const kb = /VmRSS:\s+(\d+)\s+kB/.exec(readFileSync(`/proc/${this.pid}/status`, 'utf8'))?.[1];
      return kb === undefined ? undefined : Number(kb) * 1024;
    } catch {
      return undefined;
    }
  }

  /** Latency samples collected since the last call: [record timestamp, handler start − timestamp]. */
  async samples(timeoutMs = 10_000): Promise<Array<[number, number]>> {
    const got = new Promise<Array<[number, number]>>((resolve) => (this.samplesWaiter = resolve));
    this.send({ type: 'samples' });
    return withTimeout(got, timeoutMs, 'latency samples');
  }

  /** Records done and CPU used (µs, all of the process's threads) so far, read by the poller itself now. */
  async mark(timeoutMs = 10_000): Promise<{ records: number; cpuMicros: number; gcMs: number }> {
    const got = new Promise<{ records: number; cpuMicros: number; gcMs: number }>((resolve) => (this.markWaiter = resolve));
    this.send({ type: 'mark' });
    return withTimeout(got, timeoutMs, 'mark');
  }

  async stop(timeoutMs = 40_000): Promise<void> {
    if (this.child.exitCode !== null) return;
    this.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), timeoutMs);
    try {
      await this.exited;
    } finally {
      clearTimeout(timer);
    }
  }

  private send(m: ToPoller): void {
    if (this.child.connected) this.child.send(m);
  }
}

async function withTimeout<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`bench: no ${what} after ${ms} ms`)), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
