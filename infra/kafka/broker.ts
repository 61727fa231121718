/**
 * A local single-node Apache Kafka (KRaft, broker + controller in one JVM) for `npm start` and
 * the tests. Idempotent: a broker already running from the same instance directory is reused.
 * The JVM runs detached in its own process group, so it outlives the process that started it
 * until someone calls stop() / stopBroker() / `npm run kafka -- stop`.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { SluiceError, isSluiceError } from '../../framework/errors.ts';
import { clearRecorded, readRecorded, writeRecorded } from '../process-state.ts';
import {
  instancePaths, parseBrokerState, parseKafkaVersion, renderLog4jProperties, renderServerProperties, resolveBrokerConfig,
  type BrokerState, type InstancePaths, type ResolvedBrokerConfig,
} from './config.ts';
import { isOurBroker, isAlive, stopProcessGroup } from './process.ts';
import { spawnKafka } from './jvm.ts';
import { isPortFree, probeMetadata, waitReady } from './probe.ts';
import { logTails } from './logs.ts';
import { oauthBearerListener, type OAuthBearerListener } from './oauth.ts';
import { saslListener, scramFormatArgs, type SaslListener, type SaslUser } from './sasl.ts';
import { formatStorage, isFormatted } from './storage.ts';
import { checkJava, ensureJars, kafkaLibDir } from './toolchain.ts';

/** Where pom.xml is: infra/kafka in the sources, dist/infra/kafka in the published package. */
export const KAFKA_DIR = path.dirname(fileURLToPath(import.meta.url));
const STOP_GRACE_MS = 30_000;

export const KAFKA_VERSION: string = parseKafkaVersion(readFileSync(path.join(KAFKA_DIR, 'pom.xml'), 'utf8'));
/** The jars, once per user and version, outside node_modules: reinstalling does not fetch them again. */
export const LIB_DIR = kafkaLibDir(KAFKA_VERSION, process.env);

export interface BrokerOptions {
  /** Where data, logs, pid and state live. Default `.sluice/kafka` of the directory it runs in (the service's), or SLUICE_KAFKA_DIR. */
  instanceDir?: string;
  /** Client port on 127.0.0.1. Default 29092, or SLUICE_KAFKA_PORT. */
  port?: number;
  /** Controller port. Default port + 1. */
  controllerPort?: number;
  log?: (line: string) => void;
  startTimeoutMs?: number;
  /** Wipe instanceDir/data before starting a new broker (never touches a running one). */
  freshData?: boolean;
  /** Also listen with SASL_PLAINTEXT (SCRAM-SHA-256/512, PLAIN) on port + 2 for these users (sasl.ts); needs freshly formatted data. */
  sasl?: { users: SaslUser[]; authorizer?: boolean };
  /** Advertise this port to clients instead of `port`: every connection after the first then goes through a proxy listening there (fault tests). */
  advertisedPort?: number;
  /** Also listen with SASL_SSL and OAUTHBEARER (Kafka's unsecured validator) on port + 3, with this PEM key and certificate (oauth.ts). */
  oauthBearer?: { keystorePemFile: string };
  /** Further server.properties settings, after (and over) the defaults: a test of a broker configured unlike Kafka's defaults. */
  settings?: Record<string, string | number | boolean>;
  /** Feature levels the storage is formatted with (`kafka-storage format --feature`), e.g. `{ 'share.version': 0 }`: a cluster without share groups; needs freshly formatted data. */
  features?: Record<string, number>;
}

export interface BrokerHandle {
  bootstrap: string;
  /** The SASL_PLAINTEXT listener, with the `sasl` option. */
  saslBootstrap?: string;
  /** The SASL_SSL OAUTHBEARER listener, with the `oauthBearer` option. */
  oauthBearerBootstrap?: string;
  /** False when an already-running broker was reused; stop() then does nothing. */
  startedHere: boolean;
  logFile: string;
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface BrokerStatus {
  /** The broker's process is alive. */
  running: boolean;
  /** It also answers a metadata request. */
  ready: boolean;
  bootstrap?: string;
  pid?: number;
  logFile: string;
  /** The JVM's own stdout/stderr. */
  outFile: string;
}

const defaultLog = (line: string): void => console.error(`[sluice:kafka] ${line}`);

export async function ensureBroker(opts: BrokerOptions = {}): Promise<BrokerHandle> {
  const log = opts.log ?? defaultLog;
  try {
    const cfg = resolveBrokerConfig(opts, process.env, process.cwd());
    const paths = instancePaths(cfg.instanceDir);
    const running = await findRunning(paths, log);
    const sasl = opts.sasl && saslListener(cfg.port, cfg.controllerPort, opts.sasl.users, opts.sasl.authorizer);
    const oauth = opts.oauthBearer && oauthBearerListener(cfg.port, cfg.controllerPort, opts.oauthBearer.keystorePemFile);
    const handle = running ? await reuse(running, cfg, paths, log) : await startNew(cfg, paths, opts.freshData ?? false, log, { sasl, oauth, advertisedPort: opts.advertisedPort, settings: opts.settings, features: opts.features });
    return {
      ...handle,
      ...(sasl ? { saslBootstrap: `127.0.0.1:${sasl.port}` } : {}),
      ...(oauth ? { oauthBearerBootstrap: `127.0.0.1:${oauth.port}` } : {}),
    };
  } catch (err) {
    if (isSluiceError(err)) throw err;
    throw new SluiceError('KAFKA_START_FAILED', err instanceof Error ? err.message : String(err), { cause: err });
  }
}

export async function stopBroker(opts: Pick<BrokerOptions, 'instanceDir' | 'log'> = {}): Promise<boolean> {
  const log = opts.log ?? defaultLog;
  const paths = instancePaths(resolveBrokerConfig(opts, process.env, process.cwd()).instanceDir);
  const running = await findRunning(paths, log);
  if (!running) return false;
  await stopAndForget(running.pid, paths, log);
  return true;
}

export async function brokerStatus(opts: Pick<BrokerOptions, 'instanceDir' | 'port'> = {}): Promise<BrokerStatus> {
  const cfg = resolveBrokerConfig(opts, process.env, process.cwd());
  const paths = instancePaths(cfg.instanceDir);
  const recorded = await readRecorded(paths, parseBrokerState);
  if (recorded.kind === 'none' || !(await isOurBroker(recorded.pid, paths.serverProperties))) {
    return { running: false, ready: false, logFile: paths.logFile, outFile: paths.outFile };
  }
  const bootstrap = recorded.state?.bootstrap ?? `127.0.0.1:${cfg.port}`;
  const ready = (await probeMetadata(bootstrap)).ok;
  return { running: true, ready, bootstrap, pid: recorded.pid, logFile: paths.logFile, outFile: paths.outFile };
}

interface Running { pid: number; state: BrokerState | undefined }

/** The broker recorded in paths if it is still alive; stale records are removed. */
async function findRunning(paths: InstancePaths, log: (line: string) => void): Promise<Running | undefined> {
  const recorded = await readRecorded(paths, parseBrokerState);
  if (recorded.kind === 'none') return undefined;
  if (await isOurBroker(recorded.pid, paths.serverProperties)) return { pid: recorded.pid, state: recorded.state };
  log(`Removing stale pid file ${paths.pidFile} (pid ${recorded.pid} is not a running Kafka).`);
  await clearRecorded(paths, recorded.pid);
  return undefined;
}

/**
 * How to stop a local Kafka left running: this repository has a script for it; a service that
 * installed the package has none (the Serverless CLI's start stops the broker it started), so the pid.
 */
const stopIt = (pid: number) => `npm run kafka -- stop in Sluice's repository; elsewhere kill ${pid}`;

async function reuse(running: Running, cfg: ResolvedBrokerConfig, paths: InstancePaths, log: (line: string) => void): Promise<BrokerHandle> {
  const { pid, state } = running;
  if (state && state.port !== cfg.port) {
    throw new Error(`The Kafka in ${cfg.instanceDir} is already running on port ${state.port}, not ${cfg.port}. Use port ${state.port}, or stop it first (${stopIt(pid)}) to change SLUICE_KAFKA_PORT.`);
  }
  if (state && state.kafkaVersion !== KAFKA_VERSION) {
    log(`The running broker is Kafka ${state.kafkaVersion}; the pom pins ${KAFKA_VERSION}. Stop it to upgrade (${stopIt(pid)}).`);
  }
  const bootstrap = state?.bootstrap ?? `127.0.0.1:${cfg.port}`;
  const ready = await waitReady(bootstrap, cfg.startTimeoutMs, Date.now(), () => isAlive(pid));
  if (!ready.ok) {
    throw new Error(`The Kafka already running from ${cfg.instanceDir} (pid ${pid}) does not answer at ${bootstrap}: ${ready.reason}. Stop it (${stopIt(pid)}) and retry.\n${await logTails(paths)}`);
  }
  log(`Reusing Kafka at ${bootstrap} (pid ${pid}).`);
  return { bootstrap, startedHere: false, logFile: paths.logFile, pid, stop: async () => {} };
}

async function startNew(
  cfg: ResolvedBrokerConfig, paths: InstancePaths, freshData: boolean, log: (line: string) => void,
  extra: { sasl?: SaslListener | undefined; oauth?: OAuthBearerListener | undefined; advertisedPort?: number | undefined; settings?: Record<string, string | number | boolean> | undefined; features?: Record<string, number> | undefined },
): Promise<BrokerHandle> {
  const { sasl, oauth, advertisedPort, settings, features } = extra;
  const java = await checkJava(process.env);
  await ensureJars({ kafkaDir: KAFKA_DIR, libDir: LIB_DIR, version: KAFKA_VERSION, log });
  const extraPorts = [...(sasl ? [[sasl.port, 'SASL'] as const] : []), ...(oauth ? [[oauth.port, 'OAUTHBEARER'] as const] : [])];
  for (const [port, what] of [[cfg.port, 'client'], [cfg.controllerPort, 'controller'], ...extraPorts] as const) {
    if (!(await isPortFree(port))) {
      throw new Error(`Cannot start the local Kafka: ${what} port ${port} on 127.0.0.1 is already in use by another process. Free it, or pick other ports with SLUICE_KAFKA_PORT=<port> (the controller uses port + 1), or set KAFKA_BROKERS=host:port to use an existing cluster.`);
    }
  }
  if (freshData) await rm(paths.dataDir, { recursive: true, force: true });
  await mkdir(paths.dataDir, { recursive: true });
  await writeFile(paths.serverProperties, renderServerProperties({ port: cfg.port, controllerPort: cfg.controllerPort, dataDir: paths.dataDir, ...(sasl ? { sasl } : {}), ...(oauth ? { oauthBearer: oauth } : {}), ...(advertisedPort ? { advertisedPort } : {}), ...(settings ? { settings } : {}) }));
  await writeFile(paths.log4jProperties, renderLog4jProperties(paths.logFile));
  await rename(paths.logFile, paths.previousLogFile).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });
  if (!isFormatted(paths.dataDir)) {
    const extraArgs = [...(sasl ? scramFormatArgs(sasl) : []), ...Object.entries(features ?? {}).flatMap(([name, level]) => ['--feature', `${name}=${level}`])];
    const clusterId = await formatStorage({ java, libDir: LIB_DIR, serverProperties: paths.serverProperties, log4jProperties: paths.log4jProperties, ...(extraArgs.length ? { extraArgs } : {}) });
    log(`Formatted new KRaft storage in ${paths.dataDir} (cluster ${clusterId}).`);
  }

  const started = Date.now();
  const node = spawnKafka({ java, libDir: LIB_DIR, paths, cwd: cfg.instanceDir, heap: ['256m', '1g'] });
  const { pid } = node;
  const bootstrap = `127.0.0.1:${cfg.port}`;
  await writeRecorded<BrokerState>(paths, {
    pid, bootstrap, port: cfg.port, controllerPort: cfg.controllerPort, kafkaVersion: KAFKA_VERSION, startedAt: new Date(started).toISOString(),
  });

  const ready = await waitReady(bootstrap, cfg.startTimeoutMs, started, () => node.exited() === undefined && isAlive(pid));
  if (!ready.ok) {
    const reason = node.exited() ?? ready.reason;
    await stopAndForget(pid, paths, () => {}, 5_000);
    throw new SluiceError('KAFKA_START_FAILED', `Kafka ${KAFKA_VERSION} did not start at ${bootstrap}: ${reason}.\n${await logTails(paths)}`);
  }
  log(`Kafka ${KAFKA_VERSION} ready at ${bootstrap} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${pid}, logs ${paths.logFile}).`);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= stopAndForget(pid, paths, log));
  return { bootstrap, startedHere: true, logFile: paths.logFile, pid, stop };
}

async function stopAndForget(pid: number, paths: InstancePaths, log: (line: string) => void, graceMs = STOP_GRACE_MS): Promise<void> {
  const started = Date.now();
  log(`Stopping Kafka (pid ${pid})…`);
  await stopProcessGroup(pid, graceMs, log);
  await clearRecorded(paths, pid);
  log(`Kafka stopped in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
