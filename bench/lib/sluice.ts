/**
 * Runs Sluice for one trigger in this process, as tests/support/harness.ts does: the real
 * poller (runService), the local invoker (esbuild bundle in worker threads) and the bench
 * handler. `observe` sees every invocation's request and result, for the handler's start stamp.
 */
import { resolveService } from '../../framework/config/load.ts';
import type { TriggerSpec } from '../../framework/config/types.ts';
import { InvocationHistory } from '../../framework/console/history.ts';
import { createLocalInvoker } from '../../framework/invoke/local.ts';
import type { InvokeRequest, InvokeResult, Invoker } from '../../framework/invoke/types.ts';
import { Instrumentation } from '../../framework/observe/events.ts';
import { createLogger } from '../../framework/observe/logger.ts';
import { runService } from '../../framework/poller/service-runner.ts';
import { REPO_ROOT } from './broker.ts';

export interface SluiceOptions {
  /** Function name (its bundle under .sluice/build is named by it and the handler). */
  name: string;
  brokers: string[];
  topic: string;
  groupId: string;
  batchSize: number;
  /** Chunks of one partition run at once, 1–10; undefined for the default (1). */
  parallelizationFactor?: number;
  /** `unordered`: parallelizationFactor keeps no order (undefined: the default, per key). */
  ordering?: 'unordered';
  /** `queue`: a share-group member (consumptionMode: queue), its failures sent to `kafka://<failedTopic>`. */
  queue?: { failedTopic: string };
  /** Whole seconds × 1000 (the setting is in seconds); undefined for the default (500 ms, as AWS). */
  maximumBatchingWindowMs?: number;
  concurrency: number;
  /** The bench handler's environment (BENCH_STAMP, BENCH_SLEEP_MS). */
  env?: Record<string, string>;
  /** Sees each invocation once it returned; `invokedAt` is when the poller called the invoker (epoch ms, sub-ms). */
  observe?: (request: InvokeRequest, result: InvokeResult, invokedAt: number) => void;
  /** The member's client: kafkajs (the default) or librdkafka (KIP-848's consumer protocol). */
  engine?: 'kafkajs' | 'librdkafka';
  /** Static membership (librdkafka only). */
  groupInstanceId?: string;
  /** Serve /metrics (and health) on a free loopback port, and scrape it every second, as Prometheus would. */
  metrics?: boolean;
  /** Serve health and /metrics on a free loopback port without scraping it (the console scenario's baseline). */
  http?: boolean;
  /** Serve the console (read-write, as `npm start` does) on a free loopback port; its URL is in RunningSluice. */
  console?: boolean;
  /**
   * Drop the handler's printed lines instead of writing them to stderr (the console scenario: both
   * sides print the same lines, and a synchronous write to a file or pipe varied by a tenth of the
   * poller's CPU from one pass to the next, profiled). The console's log tap still gets each line.
   */
  discardOutput?: boolean;
}

export interface RunningSluice {
  events: Instrumentation;
  consoleUrl?: string;
  stop(): Promise<void>;
}

/** Epoch ms with sub-millisecond precision, comparable across this process's threads. */
export const nowMs = (): number => performance.timeOrigin + performance.now();

/** Errors only (a scale-out run logs every expected rebalance as a warning); SLUICE_LOG_LEVEL=warn shows them. */
export const benchLogger = createLogger('bench', process.env.SLUICE_LOG_LEVEL ? {} : { level: 'error' });

/**
 * The trigger as a user would declare it, resolved by the framework's own loader (schema,
 * defaults, cross-checks), so the bench keeps up with new trigger settings by itself.
 */
export function benchTrigger(o: SluiceOptions): TriggerSpec {
  const doc = {
    service: 'sluice-bench',
    provider: { name: 'aws', runtime: 'nodejs20.x', region: 'us-east-1' },
    functions: {
      [o.name]: {
        handler: 'bench/functions/bench-handler.handler',
        timeout: 30,
        environment: o.env ?? {},
        events: [{
          sluice: {
            topic: o.topic, bootstrapServers: o.brokers.join(','), batchSize: o.batchSize,
            ...(o.parallelizationFactor === undefined ? {} : { parallelizationFactor: o.parallelizationFactor }),
            ...(o.ordering === undefined ? {} : { ordering: o.ordering }),
            ...(o.maximumBatchingWindowMs === undefined ? {} : { maximumBatchingWindow: o.maximumBatchingWindowMs / 1000 }),
            ...(o.engine === undefined ? {} : { engine: o.engine }),
            ...(o.groupInstanceId === undefined ? {} : { groupInstanceId: o.groupInstanceId }),
            ...(o.queue ? { consumptionMode: 'queue', destinationConfig: { onFailure: { destination: `kafka://${o.queue.failedTopic}` } } } : {}),
            startingPosition: 'TRIM_HORIZON', consumerGroupId: o.groupId, concurrency: o.concurrency,
          },
        }],
      },
    },
  };
  const [trigger] = resolveService(doc, { rootDir: REPO_ROOT, file: 'bench trigger', env: {} }).triggers;
  if (!trigger) throw new Error(`bench: no trigger resolved for ${o.name}`);
  return trigger;
}

export async function startSluice(o: SluiceOptions, events = new Instrumentation()): Promise<RunningSluice> {
  const trigger = benchTrigger(o);
  const history = o.console ? new InvocationHistory() : undefined;
  const local = createLocalInvoker({
    rootDir: REPO_ROOT, service: 'sluice-bench', stage: 'bench', region: 'us-east-1', logger: benchLogger, output: o.discardOutput ? () => undefined : (line) => process.stderr.write(line + '\n'),
    functions: [trigger], ...(history ? { logTap: (id, level, text) => history.log(id, level, text) } : {}),
  });
  const observe = o.observe;
  const invoker: Invoker = observe
    ? { overheadMs: local.overheadMs, prepare: () => local.prepare(), close: () => local.close(), invoke: async (r) => {
        const invokedAt = nowMs();
        const result = await local.invoke(r);
        observe(r, result, invokedAt);
        return result;
      } }
    : local;
  try {
    const running = await runService({
      triggers: [trigger], invoker, logger: benchLogger, events, ...(o.metrics || o.http || history ? { http: { host: '127.0.0.1', port: 0, explicit: true } } : {}),
      ...(history ? { console: { mode: 'read-write' as const, history, service: 'sluice-bench', stage: 'bench' } } : {}),
    });
    const scraper = o.metrics && running.httpUrl ? setInterval(() => void fetch(`${running.httpUrl}/metrics`).then((r) => r.text()).catch(() => undefined), 1_000) : undefined;
    return { events, ...(running.consoleUrl ? { consoleUrl: running.consoleUrl } : {}), stop: async () => { clearInterval(scraper); await running.stop(); await invoker.close(); } };
  } catch (e) {
    await invoker.close();
    throw e;
  }
}
