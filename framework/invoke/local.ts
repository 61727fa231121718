/**
 * The local invoker: each function runs in its own worker threads, loaded from its esbuild
 * bundle. A handler that blocks its thread cannot stop the poller (heartbeats run on the main
 * thread); one that overruns its timeout is terminated, its worker replaced, and the
 * invocation counts as failed, as on Lambda. A worker that dies while idle (a handler's stray
 * timer throwing after it returned) leaves the pool at once, so no chunk is handed to it.
 *
 * With `watch`, a change to a handler or anything it imports rebuilds that function and loads the
 * new bundle in a fresh worker; only once it loaded does it replace the old code: invocations in
 * flight finish on the old code, the next one runs the new. A change that does not build or load
 * keeps the old code running, and says why.
 */
import { randomUUID } from 'node:crypto';
import type { TriggerSpec } from '../config/types.ts';
import { SluiceError } from '../errors.ts';
import type { Logger } from '../observe/logger.ts';
import { unlink } from 'node:fs/promises';
import { relative } from 'node:path';
import { bundleHandler } from './bundle.ts';
import { handlerEnvironment } from './environment.ts';
import { locateHandler } from './handler-path.ts';
import { HandlerWorker, type FunctionRuntime } from './handler-worker.ts';
import type { HandlerLogTap, InvokeRequest, InvokeResult, Invoker } from './types.ts';
import { watchSources, type SourceWatch } from './watch-sources.ts';

/** What the invoker needs of a function (a TriggerSpec has it); its timeout also bounds the module's first load at start. */
export type LocalFunction = Pick<TriggerSpec, 'functionName' | 'handler' | 'memorySizeMb' | 'timeoutMs' | 'environment'>;

export interface LocalInvokerOptions {
  rootDir: string;
  service: string;
  stage: string;
  region: string;
  functions: LocalFunction[];
  logger: Logger;
  /** Where handler output goes, one prefixed line at a time (default: stdout). */
  output?: (line: string) => void;
  /** The environment handlers start from, less Sluice's own variables (default: process.env). */
  env?: NodeJS.ProcessEnv;
  /** Reload a function when its sources change (`npm start`; `--no-watch` turns it off). */
  watch?: boolean;
  /** How handler output is printed (default: SLUICE_LOG_FORMAT of `env`, else text). */
  logFormat?: 'text' | 'json';
  /** Also hands each handler line to this, with its invocation's request id (the console's history). */
  logTap?: HandlerLogTap;
}

/** How long a build that failed because esbuild's service stopped waits for a stop to show. */
const STOP_GRACE_MS = 500;
/** esbuild's answer once its service process is gone (a signal, or its own crash). */
const esbuildStopped = (e: unknown): boolean => /The service (was stopped|is no longer running)/.test((e as Error)?.message ?? '');

export function createLocalInvoker(o: LocalInvokerOptions): Invoker {
  const runtimes = new Map<string, FunctionRuntime>();
  const idle = new Map<string, Set<HandlerWorker>>();
  const all = new Set<HandlerWorker>();
  const output = o.output ?? ((line: string) => process.stdout.write(line + '\n'));
  const logFormat = o.logFormat ?? ((o.env ?? process.env).SLUICE_LOG_FORMAT === 'json' ? 'json' : 'text');
  const inputs = new Map<string, string[]>();
  let version = 0;
  let watcher: SourceWatch | undefined;
  let stopping = false;
  let reloading = Promise.resolve();

  const spawn = (runtime: FunctionRuntime): HandlerWorker => {
    const worker = new HandlerWorker(runtime, output, o.logTap, (gone) => {
      all.delete(gone);
      if (idle.get(runtime.functionName)?.delete(gone)) o.logger.debug('an idle worker exited; it is replaced on the next invocation', { function: runtime.functionName });
    });
    all.add(worker);
    return worker;
  };
  const poolOf = (name: string) => idle.get(name) ?? idle.set(name, new Set()).get(name)!;

  const build = async (fn: LocalFunction, v: number): Promise<FunctionRuntime> => {
    const location = locateHandler(o.rootDir, fn.functionName, fn.handler);
    const bundle = await bundleHandler(o.rootDir, fn.functionName, location, v);
    inputs.set(fn.functionName, bundle.inputs);
    const lambdaName = `${o.service}-${o.stage}-${fn.functionName}`;
    return {
      functionName: fn.functionName, lambdaName, bundle: bundle.file, memorySizeMb: fn.memorySizeMb, region: o.region, logFormat,
      env: handlerEnvironment(o.env ?? process.env, fn.environment, { lambdaName, memorySizeMb: fn.memorySizeMb, region: o.region, taskRoot: o.rootDir, handler: fn.handler }),
    };
  };

  /** Builds and loads the new code of `fn`; only a bundle that loaded replaces the old one. */
  const reload = async (fn: LocalFunction, changed: string[]): Promise<void> => {
    const started = Date.now();
    const what = changed.map((f) => relative(o.rootDir, f)).join(', ');
    let runtime: FunctionRuntime;
    let worker: HandlerWorker | undefined;
    try {
      runtime = await build(fn, ++version);
      worker = spawn(runtime);
      if (!(await loadedWithin(worker, fn.timeoutMs))) throw new Error(`its module did not finish loading within the function's ${fn.timeoutMs / 1000} s timeout`);
    } catch (e) {
      await worker?.terminate();
      if (worker) void unlink(worker.runtime.bundle).catch(() => undefined);
      // A save that met Ctrl-C: the run ends on the code it has. Ctrl-C signals esbuild's service
      // too (the terminal's whole process group), which can fail the build before this process's
      // own SIGINT handler has begun the stop: a build whose service stopped waits a moment for it.
      if (!stopping && esbuildStopped(e)) await new Promise((r) => setTimeout(r, STOP_GRACE_MS));
      if (stopping) return;
      o.logger.error(`${what} changed, but ${fn.functionName} keeps running its previous code: ${(e as Error).message}`, { function: fn.functionName });
      return;
    }
    const old = runtimes.get(fn.functionName);
    runtimes.set(fn.functionName, runtime);
    const pool = poolOf(fn.functionName);
    for (const w of pool) void w.terminate();
    pool.clear();
    pool.add(worker);
    if (old && isRebuild(old.bundle)) void unlink(old.bundle).catch(() => undefined);
    o.logger.info(`reloaded ${fn.functionName} in ${Date.now() - started} ms (${what} changed); the next invocation runs the new code`, { function: fn.functionName });
  };

  const onChange = (changed: string[]) => {
    if (stopping) return;
    const touched = o.functions.filter((fn) => inputs.get(fn.functionName)?.some((f) => changed.includes(f)));
    // One reload at a time, in order: two quick saves end on the second.
    reloading = reloading.then(async () => {
      for (const fn of touched) await reload(fn, changed.filter((f) => inputs.get(fn.functionName)?.includes(f)));
      watcher?.set([...inputs.values()].flat());
    });
  };

  return {
    // A module's load and the run share the function's timeout; terminating a worker is immediate.
    overheadMs: 0,

    async prepare() {
      for (const fn of o.functions) {
        if (runtimes.has(fn.functionName)) continue;
        const runtime = await build(fn, 0);
        runtimes.set(fn.functionName, runtime);
        // Load it once now: a missing export or a throwing module fails the start, not the first record.
        const worker = spawn(runtime);
        if (await loadedWithin(worker, fn.timeoutMs)) {
          poolOf(fn.functionName).add(worker);
          o.logger.debug('function ready', { function: fn.functionName, bundle: runtime.bundle });
        } else {
          await worker.terminate();
          o.logger.warn(`the handler module of ${fn.functionName} did not finish loading within its ${fn.timeoutMs / 1000} s timeout; each invocation loads it again and times out the same way until it does`, { function: fn.functionName });
        }
      }
      if (o.watch && !watcher) {
        watcher = watchSources(onChange);
        watcher.set([...inputs.values()].flat());
      }
    },

    async invoke(request: InvokeRequest): Promise<InvokeResult> {
      const runtime = runtimes.get(request.functionName);
      if (!runtime) throw new SluiceError('HANDLER_NOT_FOUND', `No function "${request.functionName}" was prepared.`);
      const pool = poolOf(request.functionName);
      let worker: HandlerWorker | undefined;
      for (const w of pool) {
        pool.delete(w); // one that died before its exit was seen is dropped here
        if (w.usable) {
          worker = w;
          break;
        }
      }
      // A fresh worker's load counts against this invocation's timeout (HandlerWorker.invoke).
      worker ??= spawn(runtime);
      try {
        return await worker.invoke(request, request.requestId ?? randomUUID());
      } finally {
        // A worker of code replaced meanwhile finishes this invocation and no other.
        if (worker.usable && worker.runtime === runtimes.get(request.functionName)) pool.add(worker);
        else if (worker.usable) void worker.terminate();
      }
    },

    stopWatching() {
      stopping = true;
      watcher?.close();
    },

    async close() {
      stopping = true;
      watcher?.close();
      await reloading;
      await Promise.all([...runtimes.values()].filter((r) => isRebuild(r.bundle)).map((r) => unlink(r.bundle).catch(() => undefined)));
      const workers = [...all];
      idle.clear();
      all.clear();
      await Promise.all(workers.map((w) => w.terminate()));
    },
  };
}

/** A bundle a reload wrote (`<function>.<version>.mjs`), removed once replaced. */
const isRebuild = (bundle: string) => /\.\d+\.mjs$/.test(bundle);

/** True once the module loaded; false if it is still loading after `timeoutMs`; throws if it failed to load. */
async function loadedWithin(worker: HandlerWorker, timeoutMs: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), timeoutMs)));
  try {
    return await Promise.race([worker.ready.then(() => true as const), late]);
  } finally {
    clearTimeout(timer);
  }
}
