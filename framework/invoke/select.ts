/**
 * Which transport runs the handlers of a local run (`npm start -- --invoker local|lambda`):
 * `local` bundles functions/ into worker threads; `lambda` invokes the deployed functions, or
 * serverless-offline's with `--lambda-endpoint http://localhost:3002`.
 */
import type { ServiceSpec, TriggerSpec } from '../config/types.ts';
import { ConfigError } from '../errors.ts';
import type { Logger } from '../observe/logger.ts';
import { createLambdaInvoker, deployedLambdaName } from './lambda.ts';
import { createLocalInvoker } from './local.ts';
import type { HandlerLogTap, Invoker } from './types.ts';

export const INVOKER_KINDS = ['local', 'lambda'] as const;
export type InvokerKind = (typeof INVOKER_KINDS)[number];

export interface InvokerChoice {
  kind: InvokerKind;
  /** For `lambda`: the Lambda API endpoint (default: the SDK's, from AWS_ENDPOINT_URL_LAMBDA / AWS_ENDPOINT_URL, else AWS). */
  lambdaEndpoint?: string;
  /** For `local`: reload a function when its sources change (default off; `npm start` turns it on unless --no-watch). */
  watch?: boolean;
}

/** Checks the command-line values, with what to write instead. */
export function parseInvokerChoice(kind: string | undefined, lambdaEndpoint: string | undefined): InvokerChoice {
  const k = kind ?? 'local';
  if (!(INVOKER_KINDS as readonly string[]).includes(k)) throw new ConfigError(`--invoker ${k}: unknown invoker; use one of ${INVOKER_KINDS.join(', ')}.`);
  if (lambdaEndpoint === undefined) return { kind: k as InvokerKind };
  if (k !== 'lambda') throw new ConfigError(`--lambda-endpoint needs --invoker lambda (the local invoker runs handlers itself).`);
  try {
    new URL(lambdaEndpoint);
  } catch {
    throw new ConfigError(`--lambda-endpoint ${lambdaEndpoint}: not a URL; write it as http://localhost:3002.`);
  }
  return { kind: 'lambda', lambdaEndpoint };
}

/** The most invocations the triggers may run at once: partitions at once, times invocations per partition. */
export function invocationsAtOnce(triggers: readonly Pick<TriggerSpec, 'concurrency' | 'parallelizationFactor'>[]): number {
  // A container configuration packaged before parallelizationFactor existed has none: 1.
  return triggers.reduce((n, t) => n + t.concurrency * (t.parallelizationFactor ?? 1), 0);
}

/** `logTap`: also receives each local handler's lines with their invocation's request id (the console). */
export function createInvoker(choice: InvokerChoice, service: ServiceSpec, triggers: TriggerSpec[], logger: Logger, output: (line: string) => void, logTap?: HandlerLogTap): Invoker {
  const functions = [...new Map(triggers.map((t) => [t.functionName, t])).values()];
  if (choice.kind === 'lambda') {
    return createLambdaInvoker({
      functionNames: Object.fromEntries(functions.map((t) => [t.functionName, deployedLambdaName(service.service, service.stage, t.functionName)])),
      region: service.region,
      ...(choice.lambdaEndpoint ? { endpoint: choice.lambdaEndpoint } : {}),
      logger: logger.child('lambda'),
      maxConcurrency: invocationsAtOnce(triggers),
    });
  }
  return createLocalInvoker({
    rootDir: service.rootDir, service: service.service, stage: service.stage, region: service.region, logger, output,
    functions, ...(choice.watch ? { watch: true } : {}), ...(logTap ? { logTap } : {}),
  });
}
