/**
 * Runs a service's Sluice triggers locally: what `npm start` and `serverless sluice start` do.
 * With no brokers configured it starts the local Apache Kafka (infra/kafka) and creates the
 * declared topics; a trigger whose schemaRegistryUri names the local schema registry starts that
 * too (local-registry.ts). `stop()` finishes in-flight invocations, commits them, leaves the groups and
 * stops the broker if this run started it; it may be called while the run is still starting.
 */
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { selectTriggers as selectNamedTriggers } from './service-args.ts';
import type { ServiceSpec, TriggerSpec } from '../config/types.ts';
import { ConfigError, type SluiceError } from '../errors.ts';
import { createInvoker, type InvokerChoice } from '../invoke/select.ts';
import type { Invoker } from '../invoke/types.ts';
import { Instrumentation } from '../observe/events.ts';
import type { Logger } from '../observe/logger.ts';
import { attachTerminalView } from '../observe/terminal-view.ts';
import { runService, type RunningService } from '../poller/service-runner.ts';
import { httpSettings } from './http-settings.ts';
import { consoleSettings } from './console-settings.ts';
import { InvocationHistory } from '../console/history.ts';
import { localRegistryFor, type LocalRegistry } from './local-registry.ts';
import { preflight } from './preflight.ts';

export interface RunLocalOptions {
  service: ServiceSpec;
  /** Run only this function's triggers. */
  functionFilter?: string;
  /** Partitions of the topics created on the local broker (default 3). */
  partitions?: number;
  /** What runs the handlers (default: the local invoker, worker threads). */
  invoker?: InvokerChoice;
  logger: Logger;
  /** Where the terminal view and handler output go, a line at a time (default: stdout). */
  write?: (line: string) => void;
  /** How the user sends `sample` to `topic`, for the "ready" line (default `npm run produce -- <topic> <sample>`). */
  produceHint?: (topic: string, sample: string) => string;
  /** Where SLUICE_HTTP_PORT is read (default: process.env). */
  env?: NodeJS.ProcessEnv;
}

export interface LocalRun {
  /** Resolves once every poller runs; rejects if the run could not start (already cleaned up). */
  ready: Promise<void>;
  /** Resolves with the error of a trigger that stopped for good: stop the run and exit non-zero. */
  fatal: Promise<SluiceError>;
  stop(): Promise<void>;
}

/** The enabled triggers to run, or an error that says what exists (none named: service-args's) or what turned them off. */
export function selectTriggers(service: ServiceSpec, functionFilter?: string): TriggerSpec[] {
  const named = selectNamedTriggers(service, functionFilter);
  const enabled = named.filter((t) => t.enabled);
  if (enabled.length > 0) return enabled;
  const which = [...new Set(named.map((t) => t.functionName))].join(', ');
  const one = named.length === 1;
  throw new ConfigError(`The sluice trigger${one ? '' : 's'} of ${which} ${one ? 'has' : 'have'} \`enabled: false\`: set it to true (or remove it) to run ${one ? 'it' : 'them'}.`);
}

/** How long `ready.` waits for every trigger's first join before it is printed anyway, with a warning. */
const JOIN_WAIT_MS = 30_000;

/** Which triggers' groups have a member that joined, from the poller's events. */
function joinsOf(events: Instrumentation, triggers: TriggerSpec[]) {
  const pending = new Set(triggers.map((t) => t.consumerGroupId));
  events.on('group.join', (e) => pending.delete(e.groupId));
  return {
    /** Resolves with the groups still without a member after `ms` (or sooner, once none is left or `stop()` says so). */
    async within(ms: number, stop: () => boolean): Promise<string[]> {
      const deadline = Date.now() + ms;
      while (pending.size > 0 && Date.now() < deadline && !stop()) await new Promise((r) => setTimeout(r, 50));
      return [...pending];
    },
  };
}

export function runLocal(o: RunLocalOptions): LocalRun {
  const { service, logger } = o;
  const write = o.write ?? ((line: string) => process.stdout.write(line + '\n'));
  let broker: BrokerHandle | undefined;
  let running: RunningService | undefined;
  let invoker: Invoker | undefined;
  let registry: LocalRegistry | undefined;
  let stopping: Promise<void> | undefined;
  let started: Promise<void> | undefined;
  let giveUp: (e: SluiceError) => void = () => undefined;
  const fatal = new Promise<SluiceError>((resolve) => (giveUp = resolve));

  // A stop during start waits for the start to settle (a broker or a poller cannot be cut off
  // halfway), so nothing that start brings up outlives the stop.
  const stop = () =>
    (stopping ??= (async () => {
      invoker?.stopWatching?.();
      await started?.catch(() => undefined);
      await running?.stop();
      await invoker?.close();
      if (broker?.startedHere) await broker.stop();
      if (registry?.startedHere) await registry.stop();
    })());

  const start = async () => {
    const triggers = selectTriggers(service, o.functionFilter);
    // What needs no broker fails before one starts.
    preflight(service, triggers, o.invoker);
    const http = httpSettings('local', o.env ?? process.env, service);
    const onPage = consoleSettings('local', o.env ?? process.env);
    const history = onPage ? new InvocationHistory() : undefined;
    invoker = createInvoker(o.invoker ?? { kind: 'local' }, service, triggers, logger, write, history ? (id, level, text) => history.log(id, level, text) : undefined);
    // The handlers load (a missing export, a module that throws) before a broker starts: that
    // failed after the local Kafka had started and stopped (10.2 s through npm start).
    await invoker.prepare();
    if (stopping) return;
    if (triggers.some((t) => !t.bootstrapServers)) {
      broker = await ensureBroker({ log: (line) => logger.info(line) });
    }
    if (stopping) return;
    registry = await localRegistryFor(triggers, (line) => logger.info(line));
    if (stopping) return;
    const events = new Instrumentation();
    const env = o.env ?? process.env;
    attachTerminalView(events, write, env.SLUICE_LOG_FORMAT === 'json' ? 'json' : 'text', !o.write && process.stdout.isTTY === true && !env.NO_COLOR);
    const joined = joinsOf(events, triggers);
    running = await runService({
      triggers,
      ...(broker ? { defaultBrokers: [broker.bootstrap], createTopics: { partitions: o.partitions ?? 3 } } : {}),
      invoker, logger, events, http,
      ...(onPage && history ? { console: { ...onPage, history, service: service.service, stage: service.stage } } : {}),
      // The text view shows each ✗ and ↻; JSON lines are for machines, which want the log line too.
      ...((o.env ?? process.env).SLUICE_LOG_FORMAT === 'json' ? {} : { invocationsShown: true }),
    });
    void running.fatal.then(giveUp);
    if (stopping) return;
    for (const t of triggers) {
      logger.info(`polling ${t.topic} for ${t.functionName}`, { group: t.consumerGroupId, brokers: (t.bootstrapServers ?? [broker?.bootstrap]).join(','), batchSize: t.batchSize });
    }
    if (running.consoleUrl) {
      const what = onPage?.mode === 'read-only' ? 'read-only: triggers, invocations, failures' : 'invocations, replay, redrive';
      logger.info(`console: ${running.consoleUrl}  (${what}; SLUICE_CONSOLE=off turns it off)`);
    }
    if (running.httpUrl) logger.info(`health: ${running.httpUrl}/healthz  readiness: ${running.httpUrl}/readyz`);
    // `ready.` means consuming: every trigger's member has joined its group (a restart before that included).
    const waiting = await joined.within(JOIN_WAIT_MS, () => stopping !== undefined);
    if (stopping) return;
    if (waiting.length) logger.warn(`not in its group yet after ${JOIN_WAIT_MS / 1000} s: ${waiting.join(', ')}; it keeps trying, and /readyz says when it is`);
    const hint = o.produceHint ?? ((topic: string, sample: string) => `npm run produce -- ${topic} ${sample}`);
    // A trigger that decodes values with a registry reads plain JSON as a DESERIALIZATION_ERROR: the hint writes with its schema.
    const first = triggers[0]!;
    const framed = first.schemaRegistry && first.schemaRegistry.value && !first.schemaRegistry.glue ? `--subject ${first.topic}-value ` : '';
    logger.info(`ready. Send records with: ${hint(first.topic, `${framed}'{"hello":"world"}'`)}   (Ctrl-C stops)`);
  };

  started = start();
  const ready = started.catch(async (e: unknown) => {
    await stop().catch((cleanup: unknown) => logger.warn('cleanup after a failed start failed', { error: cleanup }));
    throw e;
  });
  return { ready, fatal, stop };
}
