/**
 * Runs every enabled trigger of a service: checks the cluster is reachable (bounded retries),
 * makes sure the topics exist, prepares the handlers (so a bad handler fails before anything
 * is consumed), then starts one poller per trigger. Stopping lets in-flight work finish.
 * With `http`, the health and metrics server (/healthz, /readyz, /metrics) runs from before the first join to the stop.
 * A trigger that stops consuming for good resolves `fatal`: the caller stops and exits non-zero.
 */
import { maxTimeoutFor, minPollIntervalFor } from '../chunking/budget.ts';
import { duplicateGroupIds } from '../config/group-ids.ts';
import type { TriggerSpec } from '../config/types.ts';
import { ConfigError, SluiceError } from '../errors.ts';
import { commandLine } from '../front-door.ts';
import type { Invoker } from '../invoke/types.ts';
import { startConsole, type ConsoleSettings } from '../console/index.ts';
import { ClusterAdmin } from '../kafka/kafkajs/admin.ts';
import { createKafkaClient, type ClientOptions } from '../kafka/kafkajs/client.ts';
import { iamTokenRefused } from '../kafka/kafkajs/msk-iam-errors.ts';
import { commitWithoutJoining } from '../kafka/rdkafka/commit-offsets.ts';
import { lazySecrets, resolveTriggerSecurity, type IamOptions, type KafkaSecurity, type SecretSource } from '../kafka/security.ts';
import type { Instrumentation } from '../observe/events.ts';
import { HealthTracker } from '../observe/health.ts';
import { ProgressTracker } from '../observe/progress.ts';
import { startHttpServer } from '../observe/http-server.ts';
import { startEmfReporter, type EmfSettings } from '../observe/emf.ts';
import { PollerMetrics } from '../observe/metrics.ts';
import type { Logger } from '../observe/logger.ts';
import type { RecordDecoder } from '../schema/decoder.ts';
import { groupByCluster } from './clusters.ts';
import { createPoller, type Poller } from './poller.ts';
import { applyStartingPosition, type CommitStart, type UncommittedFrom } from './starting-position.ts';
import type { GroupTuning } from './tuning.ts';

export interface ServiceRunnerOptions {
  triggers: TriggerSpec[];
  /** Brokers for triggers that name none (the local broker, for `npm start`). */
  defaultBrokers?: string[];
  /** On the default brokers, create missing topics with this many partitions; elsewhere a missing topic is an error. */
  createTopics?: { partitions: number };
  invoker: Invoker;
  logger: Logger;
  events: Instrumentation;
  tuning?: Partial<GroupTuning>;
  /** Connection attempts before a cluster counts as unreachable. */
  retries?: number;
  /** Where accessConfigurations' secrets come from; default: SLUICE_SECRET_<NAME> variables, or Secrets Manager with SLUICE_SECRETS=secretsmanager. */
  secrets?: SecretSource;
  /** MSK IAM's region source and token source; default: AWS_REGION and the SDK's default credential chain. */
  iam?: IamOptions;
  /** Serve /healthz, /readyz and /metrics here (observe/http-server.ts); none without it. */
  http?: { host: string; port: number; explicit: boolean };
  /** Write CloudWatch Embedded Metric Format lines every period (observe/emf.ts); the container does. */
  emf?: { settings: EmfSettings; write(line: string): void };
  /** A terminal view shows each invocation and its failure (`npm start`): the log then says it at debug level only, not twice. */
  invocationsShown?: boolean;
  /** Serve the console at `/` of the `http` server (framework/console/); none without it. */
  console?: ConsoleSettings;
}

export interface RunningService {
  pollers: Poller[];
  /** The health server's base URL, with `http`. */
  httpUrl?: string;
  /** The console's URL, when it runs. */
  consoleUrl?: string;
  /** Resolves (never rejects) with the first trigger that stopped for good. */
  fatal: Promise<SluiceError>;
  /** Lets in-flight work finish and leaves the groups; with `deadlineAt` (epoch ms), leaves then without what still runs (stop-deadline.ts). */
  stop(deadlineAt?: number): Promise<void>;
}

export async function runService(o: ServiceRunnerOptions): Promise<RunningService> {
  const triggers = o.triggers.filter((t) => t.enabled);
  // serverless.yml was checked when it was read; SLUICE_TRIGGERS (the container) is checked here.
  const shared = duplicateGroupIds(triggers);
  if (shared.length) throw new ConfigError(shared.join('\n'));
  checkInvokerOverhead(triggers, o.invoker.overheadMs);
  const brokersOf = (t: TriggerSpec): string[] => {
    const brokers = t.bootstrapServers ?? o.defaultBrokers;
    if (!brokers?.length) {
      throw new SluiceError('CONFIG_INVALID', `${t.path}: no bootstrapServers, no custom.sluice.bootstrapServers and no KAFKA_BROKERS; name the brokers in one of them.`);
    }
    return brokers;
  };

  // Secrets are read once, before anything connects: a missing one fails the start with its name.
  const secrets = o.secrets ?? lazySecrets();
  const security = await resolveTriggerSecurity(triggers, secrets, o.iam);
  const decoders = new Map<TriggerSpec, RecordDecoder>();
  for (const t of triggers) {
    if (!t.schemaRegistry) continue;
    // Loaded only for a trigger that decodes: the codecs and the Glue client cost every other poller memory.
    const { createRecordDecoder } = await import('../schema/index.ts');
    decoders.set(t, await createRecordDecoder(t.schemaRegistry, { path: t.path, filters: t.filterPatterns.length > 0, secrets }));
  }

  // Health is served from before the first connection: /readyz answers 503 until every trigger joined.
  const health = new HealthTracker(triggers, o.events);
  const progress = o.http ? new ProgressTracker(triggers, o.events) : undefined;
  // Metrics listen to the events only when someone can read them.
  const metrics = o.http || o.emf ? new PollerMetrics(triggers, o.events, progress) : undefined;
  const emf = o.emf && metrics ? startEmfReporter(metrics, o.emf.settings, o.emf.write) : undefined;
  const consoleRun = o.console && progress
    ? startConsole({ settings: o.console, triggers, events: o.events, health, progress, invoker: o.invoker, clusterOf: (t) => ({ brokers: brokersOf(t), security: security.get(t) ?? {} }), logger: o.logger })
    : undefined;
  const http = o.http && (await startHttpServer({
    ...o.http,
    health,
    ...(progress ? { progress } : {}),
    ...(metrics ? { metrics } : {}),
    ...(consoleRun ? { routes: consoleRun.routes } : {}),
    onFallback: (taken, used) => o.logger.warn(`port ${taken} is taken (another poller?); serving health on ${used} instead`, { hint: 'set SLUICE_HTTP_PORT or custom.sluice.http.port to choose one' }),
  }).catch(async (e: unknown) => {
    await consoleRun?.close();
    health.close();
    progress?.close();
    emf?.stop();
    metrics?.close();
    throw e;
  }));
  const closeObservers = async () => {
    await consoleRun?.close();
    health.close();
    progress?.close();
    emf?.stop();
    metrics?.close();
    await http?.close();
  };
  let giveUp: (e: SluiceError) => void = () => undefined;
  const fatal = new Promise<SluiceError>((resolve) => (giveUp = resolve));

  const pollers: Poller[] = [];
  const started: Poller[] = [];
  const uncommittedFrom = new Map<TriggerSpec, UncommittedFrom>();
  try {
    for (const { brokers, triggers: clusterTriggers } of groupByCluster(triggers, brokersOf)) {
      const create = brokers.join(',') === o.defaultBrokers?.join(',') ? o.createTopics : undefined;
      const client: ClientOptions = { brokers, logger: o.logger, retries: o.retries ?? 5, ...security.get(clusterTriggers[0]!) };
      await prepareCluster(client, clusterTriggers, create, uncommittedFrom, (t) => security.get(t) ?? {}).catch((e: unknown) => {
        throw client.iam ? iamTokenRefused(clusterTriggers[0]!, brokers, e, client.iam.tokens.issued()) : e;
      });
    }
    await o.invoker.prepare();
    for (const trigger of triggers) {
      const decoder = decoders.get(trigger);
      pollers.push(createPoller({
        trigger, brokers: brokersOf(trigger), security: security.get(trigger) ?? {}, invoker: o.invoker, ...(consoleRun ? { watcher: consoleRun.watcher } : {}), logger: o.logger, events: o.events, onGiveUp: giveUp, ...(o.invocationsShown ? { invocationsShown: true } : {}),
        uncommittedFrom: uncommittedFrom.get(trigger) ?? 'earliest',
        ...(o.tuning ? { tuning: o.tuning } : {}),
        ...(decoder ? { decoder } : {}),
      }));
    }
    for (const p of pollers) {
      await p.start();
      started.push(p);
    }
  } catch (e) {
    await Promise.allSettled(started.map((p) => p.stop()));
    await closeObservers();
    throw e;
  }
  return {
    pollers,
    ...(http ? { httpUrl: http.url } : {}),
    ...(http && consoleRun ? { consoleUrl: `${http.url}/` } : {}),
    fatal,
    stop: async (deadlineAt?: number) => {
      const results = await Promise.allSettled(pollers.map((p) => p.stop(deadlineAt)));
      for (const r of results) if (r.status === 'rejected') o.logger.error('poller did not stop cleanly', { error: r.reason });
      await closeObservers();
    },
  };
}

/** Reachable, session timeouts the brokers accept, topics there (or created), starting positions applied. */
async function prepareCluster(
  client: ClientOptions, triggers: TriggerSpec[], create: { partitions: number } | undefined, uncommittedFrom: Map<TriggerSpec, UncommittedFrom>, securityOf: (t: TriggerSpec) => KafkaSecurity,
): Promise<void> {
  const { brokers, logger } = client;
  const admin = await ClusterAdmin.connect(createKafkaClient(client), brokers);
  try {
    checkSessionTimeouts(triggers, await admin.sessionTimeoutBounds(), brokers);
    await prepareTopics(admin, triggers, create, logger);
    for (const t of triggers) uncommittedFrom.set(t, await applyStartingPosition(admin, t, logger.child(t.functionName), startCommitFor(brokers, t, securityOf(t))));
  } finally {
    await admin.disconnect();
  }
}

/** A librdkafka (KIP-848) group's start is committed without joining it as a classic member; the caller reads it back. */
function startCommitFor(brokers: string[], t: TriggerSpec, security: KafkaSecurity): CommitStart | undefined {
  if (t.engine !== 'librdkafka') return undefined;
  return async (groupId, topic, partitions) => {
    await commitWithoutJoining({ brokers, security, groupId, topic, partitions, askedBy: t.path });
    return true;
  };
}

/** The poll budget reserves the function's timeout plus what the invoker may add (the lambda invoker's grace and throttle retries). */
function checkInvokerOverhead(triggers: TriggerSpec[], overheadMs: number): void {
  const problems = triggers
    .filter((t) => t.timeoutMs + overheadMs > maxTimeoutFor(t.maxPollIntervalMs))
    .map(
      (t) =>
        `${t.path}: timeout ${t.timeoutMs / 1000} s plus the invoker's ${overheadMs} ms (its wait for an answer and throttle retries) does not fit in maxPollIntervalMs ${t.maxPollIntervalMs} ` +
        `with its safety margin. Raise maxPollIntervalMs to at least ${minPollIntervalFor(t.timeoutMs + overheadMs)}, or lower the function's timeout.`,
    );
  if (problems.length) throw new ConfigError(problems.join('\n'));
}

/** The broker refuses a JoinGroup whose session timeout is outside its bounds; say so at start instead. */
function checkSessionTimeouts(triggers: TriggerSpec[], bounds: { min: number; max: number }, brokers: string[]): void {
  const problems = triggers
    .filter((t) => t.sessionTimeoutMs < bounds.min || t.sessionTimeoutMs > bounds.max)
    .map(
      (t) =>
        `${t.path}.sessionTimeoutMs: ${t.sessionTimeoutMs} is outside what the brokers at ${brokers.join(',')} accept, ${bounds.min}–${bounds.max} ms ` +
        `(group.min.session.timeout.ms / group.max.session.timeout.ms). Set sessionTimeoutMs within that range, or change those broker settings.`,
    );
  if (problems.length) throw new ConfigError(problems.join('\n'));
}

/** Waits between the looks for a topic not in the metadata yet before it is refused (3.75 s in all). */
const TOPIC_METADATA_WAITS_MS = [250, 500, 1_000, 2_000];

async function prepareTopics(admin: ClusterAdmin, triggers: TriggerSpec[], create: { partitions: number } | undefined, logger: Logger): Promise<void> {
  const destinations = triggers.flatMap((t) => (t.failure.onFailure?.kind === 'kafka' ? [t.failure.onFailure.topic] : []));
  const topics = [...new Set([...triggers.map((t) => t.topic), ...destinations])];
  if (create) {
    const created = await admin.ensureTopics(topics.map((topic) => ({ topic, partitions: create.partitions })));
    for (const topic of created) logger.info('created topic', { topic, partitions: create.partitions });
    return;
  }
  let missing = await admin.missingTopics(topics);
  // A topic created a moment ago may not be in the metadata of the broker that answers yet (a
  // cluster of several: the fault tier's start met it once): asked again for a few seconds first.
  for (const waitMs of TOPIC_METADATA_WAITS_MS) {
    if (missing.length === 0) break;
    await new Promise((r) => setTimeout(r, waitMs));
    missing = await admin.missingTopics(missing);
  }
  if (missing.length) {
    const t = triggers.find((x) => missing.includes(x.topic));
    if (t) throw new SluiceError('CONFIG_INVALID', `${t.path}.topic: topic "${t.topic}" does not exist on ${admin.brokers.join(',')}. Create it (\`${commandLine('create-topics', `-f ${t.functionName}`)}\` creates a trigger's topics), or fix the topic name.`);
    const d = triggers.find((x) => x.failure.onFailure?.kind === 'kafka' && missing.includes(x.failure.onFailure.topic))!;
    throw new SluiceError('CONFIG_INVALID', `${d.path}.destinationConfig.onFailure.destination: topic "${d.failure.onFailure!.uri.slice('kafka://'.length)}" does not exist on ${admin.brokers.join(',')}. Create it before starting (\`${commandLine('create-topics', `-f ${d.functionName}`)}\`): failed records go there.`);
  }
}
