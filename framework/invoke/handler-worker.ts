/**
 * One worker thread running one function's bundle; one invocation at a time. As on Lambda, the
 * module's load (its top-level code) counts against the first invocation's timeout: a module
 * that never finishes loading times that invocation out instead of hanging it, and one that
 * fails to load fails it (Runtime.ImportModuleError) instead of throwing into the poller.
 */
import { Worker } from 'node:worker_threads';
import { createInterface } from 'node:readline';
import { SluiceError } from '../errors.ts';
import type { FromWorker, ToWorker, WorkerLog, WorkerWrite } from './worker-protocol.ts';
import { OutputLines } from './output-lines.ts';
import { packRecords } from './record-transfer.ts';
import type { HandlerLogTap, InvokeError, InvokeRequest, InvokeResult } from './types.ts';
import { printableJson, printableKeepingColour } from '../observe/printable.ts';

export interface FunctionRuntime {
  functionName: string;
  /** The deployed Lambda's name: `<service>-<stage>-<function>`. */
  lambdaName: string;
  bundle: string;
  memorySizeMb: number;
  region: string;
  env: Record<string, string>;
  /** How handler output is printed (default text). */
  logFormat?: 'text' | 'json';
}

interface Pending {
  id: number;
  resolve(result: InvokeResult): void;
  started: number;
  requestId: string;
  timer: NodeJS.Timeout;
}

let nextId = 1;

export class HandlerWorker {
  /** Resolves once the module loaded; rejects (HANDLER_NOT_FOUND, WORKER_CRASHED) if it cannot. */
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private pending: Pending | undefined;
  private readonly print: (level: WorkerLog['level'], text: string, id?: number) => void;
  /** What the handler wrote to process.stdout and stderr, cut into lines here (worker-protocol.ts, WorkerWrite). */
  private readonly written: Record<WorkerWrite['stream'], WrittenLines>;
  private loaded = false;
  private dead = false;

  /** `onExit` runs once when the thread is gone, whatever the reason (the pool drops it then). */
  constructor(readonly runtime: FunctionRuntime, output: (line: string) => void, tap?: HandlerLogTap, onExit: (worker: HandlerWorker) => void = () => undefined) {
    this.worker = new Worker(runtime.bundle, {
      env: runtime.env,
      // The bundle is plain JavaScript: no loader (tsx) to inherit, which halves a cold start.
      // Source maps are read as the bundle loads, so a handler's stack names its .ts lines.
      execArgv: ['--enable-source-maps'],
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, runtime.memorySizeMb) },
    });
    this.print = handlerLines(runtime, output, () => this.pending, tap);
    this.written = { stdout: writtenLines('log', this.print), stderr: writtenLines('error', this.print) };
    // What the module printed while it loaded (the runtime takes process.stdout and stderr over after).
    createInterface({ input: this.worker.stdout, crlfDelay: Infinity }).on('line', (line) => this.print('log', line));
    createInterface({ input: this.worker.stderr, crlfDelay: Infinity }).on('line', (line) => this.print('error', line));

    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: FromWorker) => {
        if (m.type === 'ready') {
          this.loaded = true;
          resolve();
        } else if (m.type === 'load-error') {
          this.dead = true;
          void this.worker.terminate();
          reject(new SluiceError('HANDLER_NOT_FOUND', `functions.${runtime.functionName}.handler: ${m.message}`));
          this.fail({ kind: 'error', name: 'Runtime.ImportModuleError', message: m.message });
        } else if (m.type === 'log') this.print(m.level, m.text, m.id);
        else if (m.type === 'write') this.written[m.stream].write(m.text, m.id);
        else if (m.type === 'result') {
          // A line the invocation left unended is its own, ended with it.
          this.endLines();
          this.settle(m.id, m.ok ? { ok: true, payload: m.payload } : { ok: false, error: m.error });
        }
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', (e) => {
        this.dead = true;
        this.endLines();
        if (!this.loaded) reject(new SluiceError('WORKER_CRASHED', `Function "${runtime.functionName}" failed to load: ${e.message}${whereThrown(e)}`, { cause: e }));
        this.fail({ kind: this.loaded ? 'crash' : 'error', name: this.loaded ? e.name : 'Runtime.ImportModuleError', message: this.loaded ? `Runtime exited: ${e.message}` : e.message });
      });
      this.worker.on('exit', (code) => {
        this.dead = true;
        // What the worker wrote last, unended: its messages are all in by now.
        this.endLines();
        reject(new SluiceError('WORKER_CRASHED', `Function "${runtime.functionName}" exited with code ${code} while loading.`));
        this.fail({ kind: 'crash', name: 'Error', message: `Runtime exited: worker exited with code ${code}` });
        onExit(this);
      });
    });
    // Whoever needs the load awaits `ready`; a failed load also fails the pending invocation.
    this.ready.catch(() => undefined);
  }

  get usable(): boolean {
    return !this.dead && this.pending === undefined;
  }

  /** May be called before the module loaded: the message waits in the worker's queue, the deadline runs from now. */
  invoke(request: InvokeRequest, requestId: string): Promise<InvokeResult> {
    const { timeoutMs } = request;
    const id = nextId++;
    const started = Date.now();
    const r = this.runtime;
    return new Promise<InvokeResult>((resolve) => {
      const timer = setTimeout(() => {
        // Lambda's own words; the worker is stopped even if it busy-loops.
        const loading = this.loaded ? '' : ' (the handler module had not finished loading: its top-level code counts against the timeout)';
        this.endLines();
        this.settle(id, { ok: false, error: { kind: 'timeout', name: 'TimeoutError', message: `Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds${loading}` } });
        this.dead = true;
        void this.worker.terminate();
      }, timeoutMs);
      this.pending = { id, resolve, started, requestId, timer };
      if (this.dead) {
        this.fail({ kind: 'crash', name: 'Error', message: 'Runtime exited before the invocation started' });
        return;
      }
      const message: ToWorker = {
        type: 'invoke',
        id,
        records: packRecords(request.records),
        source: request.source,
        context: {
          functionName: r.lambdaName,
          functionVersion: '$LATEST',
          invokedFunctionArn: `arn:aws:lambda:${r.region}:000000000000:function:${r.lambdaName}`,
          memoryLimitInMB: String(r.memorySizeMb),
          awsRequestId: requestId,
          logGroupName: `/aws/lambda/${r.lambdaName}`,
          logStreamName: `sluice/${r.functionName}/${this.worker.threadId}`,
          deadlineMs: started + timeoutMs,
        },
      };
      this.worker.postMessage(message, [message.records.bytes, message.records.index.buffer as ArrayBuffer]);
    });
  }

  async terminate(): Promise<void> {
    this.dead = true;
    await this.worker.terminate();
  }

  private settle(id: number, outcome: { ok: true; payload: unknown } | { ok: false; error: InvokeError }): void {
    const p = this.pending;
    if (!p || p.id !== id) return;
    clearTimeout(p.timer);
    this.pending = undefined;
    const base = { durationMs: Date.now() - p.started, requestId: p.requestId };
    p.resolve(outcome.ok ? { ok: true, payload: outcome.payload, ...base } : { ok: false, error: outcome.error, ...base });
  }

  private endLines(): void {
    this.written.stdout.end();
    this.written.stderr.end();
  }

  private fail(error: InvokeError): void {
    if (this.pending) this.settle(this.pending.id, { ok: false, error });
  }
}

/**
 * How a handler's output is printed: `[function] line` per line, or with SLUICE_LOG_FORMAT=json
 * one object per call with the time, level, function and the request id of its invocation (the
 * fields Lambda's own log lines carry).
 */
function handlerLines(
  runtime: FunctionRuntime, output: (line: string) => void, pending: () => Pending | undefined, tap?: HandlerLogTap,
): (level: WorkerLog['level'], text: string, id?: number) => void {
  return (level, raw, id) => {
    const text = withoutRuntimeFrames(raw);
    if (tap) {
      const p = pending();
      tap(p && (id === undefined || id === p.id) ? p.requestId : undefined, level === 'log' ? 'info' : level, text);
    }
    if (runtime.logFormat !== 'json') {
      // Escaped but for colours: a handler's line may quote a record (JSON.parse's error quotes its input).
      for (const line of text.split('\n')) output(`[${runtime.functionName}] ${printableKeepingColour(line)}`);
      return;
    }
    const p = pending();
    const requestId = p && (id === undefined || id === p.id) ? p.requestId : undefined;
    output(printableJson(JSON.stringify({ time: new Date().toISOString(), level: level === 'log' ? 'info' : level, function: runtime.functionName, ...(requestId ? { requestId } : {}), message: text })));
  };
}

interface WrittenLines {
  write(text: string, id: number | undefined): void;
  end(): void;
}

/**
 * One stream's writes as lines, each printed with the invocation that wrote it: the rest of a line
 * waits for its end, for a write of another invocation's, or for end() (the invocation's result,
 * its timeout, the worker's exit).
 */
function writtenLines(level: WorkerLog['level'], print: (level: WorkerLog['level'], text: string, id?: number) => void): WrittenLines {
  let restOf: number | undefined;
  const lines = new OutputLines((line) => print(level, line, restOf));
  return {
    write(text, id) {
      if (id !== restOf) lines.end();
      restOf = id;
      lines.write(text);
    },
    end: () => lines.end(),
  };
}

/** The frame a module's load threw from, source-mapped to the service's file and line (`\n    at functions/x.ts:3:7`), if the stack names one. */
export function whereThrown(e: Error): string {
  const frame = (e.stack ?? '').split('\n').slice(1).map((l) => l.trim()).find((l) => l.startsWith('at ') && !/node:|\/node_modules\/|worker-runtime/.test(l));
  return frame ? `\n    ${frame}` : '';
}

/** Stack frames of Sluice's worker runtime and Node's internals, the same under every logged error: left out of a handler's output. */
const RUNTIME_FRAME = /^\s+at .*(worker-runtime\.[jt]s|node:internal\/|nodejs\.internal\.|new Promise \(<anonymous>\)|per_context\/messageport)/;

export function withoutRuntimeFrames(text: string): string {
  return text.includes('\n') ? text.split('\n').filter((l) => !RUNTIME_FRAME.test(l)).join('\n') : text;
}
