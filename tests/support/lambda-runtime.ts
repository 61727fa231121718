/**
 * A Lambda function as Lambda's Node.js runtime runs it, here: aws-lambda-ric 4 (the runtime
 * client AWS publishes for its Node.js runtimes) started on a chosen Node.js binary with _HANDLER,
 * LAMBDA_TASK_ROOT and the function's environment, against a Runtime API served by this module.
 * Each `invoke` hands one event to the runtime and resolves with what it posted back: the
 * handler's result, its error, or the init error of a handler that cannot be loaded
 * (Runtime.ImportModuleError, Runtime.HandlerNotFound, …). Only the runtime client's native
 * transport is replaced (./lambda-runtime/rapid-client.cjs).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureLambdaRic } from '../../infra/npm-tools.ts';

const STAND_IN = fileURLToPath(new URL('./lambda-runtime/rapid-client.cjs', import.meta.url));
const API = '/2018-06-01/runtime';

export type LambdaAnswer =
  | { ok: true; result: unknown }
  | { ok: false; errorType: string; errorMessage: string; trace: string[]; init: boolean };

export interface LocalLambdaOptions {
  /** The unpacked artifact: Lambda's /var/task. */
  taskRoot: string;
  /** The function's `handler:` as deployed, e.g. functions/orders.handler. */
  handler: string;
  /** The Node.js binary to run the runtime on. */
  node: string;
  functionName: string;
  /** e.g. nodejs22.x: sets AWS_EXECUTION_ENV as Lambda does. */
  runtime: string;
  timeoutSeconds?: number;
  /** The function's environment, as the template gives it (NODE_OPTIONS included). */
  environment?: Record<string, string>;
}

interface Pending {
  id: string;
  event: unknown;
  answer: (a: LambdaAnswer) => void;
}

export class LocalLambda {
  private readonly queue: Pending[] = [];
  private readonly inFlight = new Map<string, Pending>();
  private waitingNext: ServerResponse | undefined;
  private initError: LambdaAnswer | undefined;
  private out = '';

  private constructor(
    private readonly server: Server,
    private readonly options: LocalLambdaOptions,
    private child?: ChildProcess,
  ) {}

  static async start(options: LocalLambdaOptions): Promise<LocalLambda> {
    const ric = ensureLambdaRic();
    // The runtime client require()s its native transport by this name; the stand-in answers for it.
    const native = join(dirname(ric), 'rapid-client.node');
    if (!existsSync(native)) writeFileSync(native, 'replaced by tests/support/lambda-runtime/rapid-client.cjs\n');
    let lambda: LocalLambda | undefined;
    const server = createServer((req, res) => lambda!.serve(req, res));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    lambda = new LocalLambda(server, options);
    const port = (server.address() as AddressInfo).port;
    // Lambda's variables only: nothing of this machine's Node.js setup (no NODE_PATH) leaks in.
    const env: NodeJS.ProcessEnv = {
      PATH: process.env.PATH,
      TZ: ':UTC',
      LANG: 'en_US.UTF-8',
      AWS_LAMBDA_RUNTIME_API: `127.0.0.1:${port}`,
      AWS_LAMBDA_NODEJS_USE_ALTERNATIVE_CLIENT_1: 'true',
      _HANDLER: options.handler,
      LAMBDA_TASK_ROOT: options.taskRoot,
      LAMBDA_RUNTIME_DIR: dirname(ric),
      AWS_EXECUTION_ENV: `AWS_Lambda_${options.runtime}`,
      AWS_REGION: 'eu-west-1',
      AWS_DEFAULT_REGION: 'eu-west-1',
      AWS_LAMBDA_FUNCTION_NAME: options.functionName,
      AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: '1024',
      AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${options.functionName}`,
      AWS_LAMBDA_LOG_STREAM_NAME: '2026/12/01/[$LATEST]local',
      ...options.environment,
    };
    // NODE_OPTIONS is read by Node.js itself at start, as on Lambda.
    lambda.child = spawn(options.node, ['--require', STAND_IN, ric], { cwd: options.taskRoot, env, stdio: ['ignore', 'pipe', 'pipe'] });
    lambda.child.stdout!.on('data', (d: Buffer) => (lambda.out += d.toString()));
    lambda.child.stderr!.on('data', (d: Buffer) => (lambda.out += d.toString()));
    lambda.child.on('exit', (code) => {
      lambda.out += `\n[runtime exited ${code}]\n`;
      const gone: LambdaAnswer = lambda.initError ?? { ok: false, errorType: 'Runtime.ExitError', errorMessage: `the runtime exited (${code})`, trace: [], init: false };
      for (const p of [...lambda.queue.splice(0), ...lambda.inFlight.values()]) p.answer(gone);
      lambda.inFlight.clear();
    });
    return lambda;
  }

  invoke(event: unknown): Promise<LambdaAnswer> {
    if (this.initError) return Promise.resolve(this.initError);
    return new Promise((answer) => {
      this.queue.push({ id: randomUUID(), event, answer });
      this.dispatch();
    });
  }

  /** What the runtime and the handler printed. */
  output(): string {
    return this.out;
  }

  async stop(): Promise<void> {
    if (this.child && this.child.exitCode === null) {
      const exited = new Promise((resolve) => this.child!.once('exit', resolve));
      this.child.kill('SIGKILL');
      await exited;
    }
    this.waitingNext?.destroy();
    await new Promise((resolve) => this.server.close(resolve));
  }

  private dispatch(): void {
    if (!this.waitingNext || this.queue.length === 0) return;
    const next = this.queue.shift()!;
    const res = this.waitingNext;
    this.waitingNext = undefined;
    this.inFlight.set(next.id, next);
    res.writeHead(200, {
      'content-type': 'application/json',
      'lambda-runtime-aws-request-id': next.id,
      'lambda-runtime-deadline-ms': String(Date.now() + (this.options.timeoutSeconds ?? 6) * 1000),
      'lambda-runtime-invoked-function-arn': `arn:aws:lambda:eu-west-1:123456789012:function:${this.options.functionName}`,
    });
    res.end(JSON.stringify(next.event));
  }

  private serve(req: IncomingMessage, res: ServerResponse): void {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => {
      const url = req.url ?? '';
      if (req.method === 'GET' && url === `${API}/invocation/next`) {
        this.waitingNext = res;
        this.dispatch();
        return;
      }
      res.writeHead(202, { 'content-type': 'application/json' }).end('{"status":"OK"}');
      const parsed = parse(body);
      if (url === `${API}/init/error`) {
        this.initError = { ...failure(parsed), init: true };
        for (const p of this.queue.splice(0)) p.answer(this.initError);
        return;
      }
      const m = /^\/2018-06-01\/runtime\/invocation\/([^/]+)\/(response|error)$/.exec(url);
      const pending = m ? this.inFlight.get(decodeURIComponent(m[1]!)) : undefined;
      if (!m || !pending) return;
      this.inFlight.delete(pending.id);
      pending.answer(
        m[2] === 'response'
          ? { ok: true, result: parsed }
          : { ...failure(parsed), init: false },
      );
    });
  }
}

function parse(body: string): unknown {
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}

function failure(body: unknown): { ok: false; errorType: string; errorMessage: string; trace: string[] } {
  const trace = field(body, 'trace');
  return { ok: false, errorType: String(field(body, 'errorType')), errorMessage: String(field(body, 'errorMessage')), trace: Array.isArray(trace) ? trace.map(String) : [] };
}

function field(x: unknown, name: string): unknown {
  return x !== null && typeof x === 'object' ? (x as Record<string, unknown>)[name] : undefined;
}
