/** One worker thread running one function's bundle; one invocation at a time. */
import { Worker } from 'node:worker_threads';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { SluiceError } from '../errors.ts';
import type { FromWorker, ToWorker } from './worker-protocol.ts';
import { packRecords } from './record-transfer.ts';
import type { InvokeError, InvokeRequest, InvokeResult } from './types.ts';

export interface FunctionRuntime {
  functionName: string;
  /** The deployed Lambda's name: `<service>-<stage>-<function>`. */
  lambdaName: string;
  bundle: string;
  memorySizeMb: number;
  region: string;
  env: NodeJS.ProcessEnv;
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
  readonly ready: Promise<void>;
  private readonly worker: Worker;
  private pending: Pending | undefined;
  private dead = false;

  constructor(private readonly runtime: FunctionRuntime, output: (line: string) => void) {
    this.worker = new Worker(runtime.bundle, {
      env: runtime.env,
      // The bundle is plain JavaScript: no loader (tsx) to inherit, which halves a cold start.
      execArgv: [],
      stdout: true,
      stderr: true,
      resourceLimits: { maxOldGenerationSizeMb: Math.max(64, runtime.memorySizeMb) },
    });
    prefixLines(this.worker.stdout, `[${runtime.functionName}]`, output);
    prefixLines(this.worker.stderr, `[${runtime.functionName}]`, output);

    this.ready = new Promise<void>((resolve, reject) => {
      const onMessage = (m: FromWorker) => {
        if (m.type === 'ready') resolve();
        else if (m.type === 'load-error') {
          this.dead = true;
          void this.worker.terminate();
          reject(new SluiceError('HANDLER_NOT_FOUND', `functions.${runtime.functionName}.handler: ${m.message}`));
        } else if (m.type === 'result') this.settle(m.id, m.ok ? { ok: true, payload: m.payload } : { ok: false, error: m.error });
      };
      this.worker.on('message', onMessage);
      this.worker.on('error', (e) => {
        this.dead = true;
        reject(new SluiceError('WORKER_CRASHED', `Function "${runtime.functionName}" failed to load: ${e.message}`, { cause: e }));
        this.crash(e);
      });
      this.worker.on('exit', (code) => {
        this.dead = true;
        this.crash(new Error(`worker exited with code ${code}`));
      });
    });
  }

  get usable(): boolean {
    return !this.dead && this.pending === undefined;
  }

  invoke(request: InvokeRequest, requestId: string): Promise<InvokeResult> {
    const { timeoutMs } = request;
    const id = nextId++;
    const started = Date.now();
    const r = this.runtime;
    return new Promise<InvokeResult>((resolve) => {
      const timer = setTimeout(() => {
        // Lambda's own words; the worker is stopped even if it busy-loops.
        this.settle(id, { ok: false, error: { kind: 'timeout', name: 'TimeoutError', message: `Task timed out after ${(timeoutMs / 1000).toFixed(2)} seconds` } });
        this.dead = true;
        void this.worker.terminate();
      }, timeoutMs);
      this.pending = { id, resolve, started, requestId, timer };
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

  private crash(e: Error): void {
    if (this.pending) this.settle(this.pending.id, { ok: false, error: { kind: 'crash', name: e.name, message: `Runtime exited: ${e.message}` } });
  }
}

function prefixLines(stream: Readable, prefix: string, output: (line: string) => void): void {
  createInterface({ input: stream, crlfDelay: Infinity }).on('line', (line) => output(`${prefix} ${line}`));
}
