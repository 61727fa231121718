/**
 * The console wired as service-runner.ts wires it, for the bench tools that run it without a
 * broker (console-bookkeeping.ts, paced-console.ts): a trigger, the trackers that listen in a
 * running service, and the poller's own ChunkInvoker telling the console of each invocation
 * through its watcher (or, without the console, the same invoker with no watcher).
 */
import type { TriggerSpec } from '../../framework/config/types.ts';
import type { InvocationHistory } from '../../framework/console/history.ts';
import { startConsole, type ServiceConsole } from '../../framework/console/index.ts';
import type { Invoker } from '../../framework/invoke/types.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { HealthTracker } from '../../framework/observe/health.ts';
import { createLogger } from '../../framework/observe/logger.ts';
import { ProgressTracker } from '../../framework/observe/progress.ts';
import { ChunkInvoker } from '../../framework/poller/chunk-invoker.ts';

export function benchTrigger(name: string, batchSize: number): TriggerSpec {
  return {
    functionName: name, topic: name, consumerGroupId: 'g', path: `functions.${name}.events[0].sluice`, timeoutMs: 10_000, maxPollIntervalMs: 120_000,
    batchSize, parallelizationFactor: 1, engine: 'kafkajs', failure: {},
  } as unknown as TriggerSpec;
}

export interface WiredConsole {
  /** The poller's side of an invocation. */
  chunks: ChunkInvoker;
  /** The console, unless wired without it. */
  console: ServiceConsole | undefined;
}

/** `history` undefined: the same poller's side with no console. `brokers`: where its offset reads go. */
export function wiredConsole(spec: TriggerSpec, inner: Invoker, history: InvocationHistory | undefined, brokers: string): WiredConsole {
  const logger = createLogger('bench', { level: 'error' });
  const events = new Instrumentation();
  const [health, progress] = [new HealthTracker([spec], events), new ProgressTracker([spec], events)];
  const run = history
    ? startConsole({ settings: { mode: 'read-write', history, service: 'bench', stage: 'dev' }, triggers: [spec], events, health, progress, invoker: inner, clusterOf: () => ({ brokers: [brokers], security: {} }), logger })
    : undefined;
  return { chunks: new ChunkInvoker(spec, inner, events, logger, 3_000, { bootstrapServers: brokers }, run?.watcher), console: run };
}
