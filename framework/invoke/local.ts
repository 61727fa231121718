/**
 * The local invoker: each function runs in its own worker threads, loaded from its esbuild
 * bundle. A handler that blocks its thread cannot stop the poller (heartbeats run on the main
 * thread); one that overruns its timeout is terminated, its worker replaced, and the
 * invocation counts as failed, as on Lambda.
 */
import { randomUUID } from 'node:crypto';
import { SluiceError } from '../errors.ts';
import type { Logger } from '../observe/logger.ts';
import { bundleHandler } from './bundle.ts';
import { locateHandler } from './handler-path.ts';
import { HandlerWorker, type FunctionRuntime } from './handler-worker.ts';
import type { InvokeRequest, InvokeResult, Invoker } from './types.ts';

export interface LocalFunction {
  functionName: string;
  handler: string;
  memorySizeMb: number;
  environment: Record<string, string>;
}

export interface LocalInvokerOptions {
  rootDir: string;
  service: string;
  stage: string;
  region: string;
  functions: LocalFunction[];
  logger: Logger;
  /** Where handler output goes, one prefixed line at a time (default: stdout). */
  output?: (line: string) => void;
}

export function createLocalInvoker(o: LocalInvokerOptions): Invoker {
  const runtimes = new Map<string, FunctionRuntime>();
  const idle = new Map<string, HandlerWorker[]>();
  const busy = new Set<HandlerWorker>();
  const output = o.output ?? ((line: string) => process.stdout.write(line + '\n'));

  const spawn = async (runtime: FunctionRuntime): Promise<HandlerWorker> => {
    const worker = new HandlerWorker(runtime, output);
    await worker.ready;
    return worker;
  };

  return {
    async prepare() {
      for (const fn of o.functions) {
        if (runtimes.has(fn.functionName)) continue;
        const location = locateHandler(o.rootDir, fn.functionName, fn.handler);
        const bundle = await bundleHandler(o.rootDir, fn.functionName, location);
        const lambdaName = `${o.service}-${o.stage}-${fn.functionName}`;
        const runtime: FunctionRuntime = {
          functionName: fn.functionName,
          lambdaName,
          bundle,
          memorySizeMb: fn.memorySizeMb,
          region: o.region,
          env: {
            ...process.env,
            ...fn.environment,
            AWS_REGION: o.region,
            AWS_DEFAULT_REGION: o.region,
            AWS_LAMBDA_FUNCTION_NAME: lambdaName,
            AWS_LAMBDA_FUNCTION_VERSION: '$LATEST',
            AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memorySizeMb),
            AWS_LAMBDA_LOG_GROUP_NAME: `/aws/lambda/${lambdaName}`,
            LAMBDA_TASK_ROOT: o.rootDir,
          },
        };
        runtimes.set(fn.functionName, runtime);
        // Load it once now: a missing export fails the start, not the first record.
        idle.set(fn.functionName, [await spawn(runtime)]);
        o.logger.debug('function ready', { function: fn.functionName, bundle });
      }
    },

    async invoke(request: InvokeRequest): Promise<InvokeResult> {
      const runtime = runtimes.get(request.functionName);
      if (!runtime) throw new SluiceError('HANDLER_NOT_FOUND', `No function "${request.functionName}" was prepared.`);
      const pool = idle.get(request.functionName) ?? [];
      const worker = pool.pop() ?? (await spawn(runtime));
      busy.add(worker);
      try {
        const result = await worker.invoke(request, randomUUID());
        return result;
      } finally {
        busy.delete(worker);
        if (worker.usable) pool.push(worker);
        idle.set(request.functionName, pool);
      }
    },

    async close() {
      const all = [...busy, ...[...idle.values()].flat()];
      idle.clear();
      busy.clear();
      await Promise.all(all.map((w) => w.terminate()));
    },
  };
}
