/**
 * A local Confluent-compatible schema registry (Apicurio Registry, in-memory H2 storage, BACKWARD
 * compatibility by default) for `npm start` and the tests, started like the local Kafka broker:
 * resolved once from Maven Central, run detached in its own process group, reused when one is
 * already running from the same instance directory, stopped by stop() / stopRegistry() /
 * `npm run registry -- stop`. SCHEMA_REGISTRY_URL names an existing registry instead: none is started.
 */
import { readFileSync } from 'node:fs';
import { mkdir, rename } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isAlive, stopProcessGroup } from '../kafka/process.ts';
import { clearRecorded, readRecorded, writeRecorded } from '../process-state.ts';
import { isPortFree } from '../kafka/probe.ts';
import {
  ccompatUrl, parseRegistryState, parseRegistryVersion, readyUrl, registryJvmArgs, registryPaths, resolveRegistryConfig,
  type RegistryPaths, type RegistryState, type ResolvedRegistryConfig,
} from './config.ts';
import { findRegistryJava, systemJavaLookup } from './java.ts';
import { isOurRegistry, spawnRegistry } from './jvm.ts';
import { registryLogTail } from './logs.ts';
import { probeReady, waitRegistryReady } from './probe.ts';
import { ensureRegistryDist, registryDistDir } from './toolchain.ts';

/** Where pom.xml is. */
export const REGISTRY_POM_DIR = path.dirname(fileURLToPath(import.meta.url));
export const REGISTRY_VERSION: string = parseRegistryVersion(readFileSync(path.join(REGISTRY_POM_DIR, 'pom.xml'), 'utf8'));
/** The unpacked registry, once per user and version, beside the Kafka jars. */
export const REGISTRY_DIST_DIR = registryDistDir(REGISTRY_VERSION, process.env);
const HEAP = '384m';
const STOP_GRACE_MS = 20_000;
/** How to stop a registry left running: a script in this repository, the pid in a service (whose start stops the one it started). */
const stopIt = (pid: number) => `npm run registry -- stop in Sluice's repository; elsewhere kill ${pid}`;

export interface RegistryOptions {
  /** Where pid, state, logs and the JVM's temp files live. Default `.sluice/registry` of the working directory, or SLUICE_REGISTRY_DIR. */
  instanceDir?: string;
  /** HTTP port on 127.0.0.1 (the Confluent API). Default 28081, or SLUICE_REGISTRY_PORT. */
  port?: number;
  /** Management port (health). Default port + 1. */
  managementPort?: number;
  startTimeoutMs?: number;
  /** Schemas in an H2 file under instanceDir (they outlive a restart) instead of in memory. */
  persistent?: boolean;
  log?: (line: string) => void;
}

export interface RegistryHandle {
  /** The Confluent Schema Registry API base, e.g. http://127.0.0.1:28081/apis/ccompat/v7. */
  url: string;
  /** False when an already-running or external (SCHEMA_REGISTRY_URL) registry is used; stop() then does nothing. */
  startedHere: boolean;
  logFile: string | undefined;
  pid: number | undefined;
  stop(): Promise<void>;
}

export interface RegistryStatus {
  running: boolean;
  /** It also answers its readiness check. */
  ready: boolean;
  url?: string;
  pid?: number;
  logFile: string;
}

const defaultLog = (line: string): void => console.error(`[sluice:registry] ${line}`);

export async function ensureRegistry(opts: RegistryOptions = {}): Promise<RegistryHandle> {
  const log = opts.log ?? defaultLog;
  const external = process.env['SCHEMA_REGISTRY_URL']?.trim().replace(/\/+$/, '');
  if (external) {
    log(`Using the schema registry at ${external} (SCHEMA_REGISTRY_URL); starting none.`);
    return { url: external, startedHere: false, logFile: undefined, pid: undefined, stop: async () => {} };
  }
  const cfg = resolveRegistryConfig(opts, process.env, process.cwd());
  const paths = registryPaths(cfg.instanceDir);
  const running = await findRunning(paths, log);
  return running ? reuse(running, cfg, paths, log) : startNew(cfg, paths, log);
}

export async function stopRegistry(opts: Pick<RegistryOptions, 'instanceDir' | 'log'> = {}): Promise<boolean> {
  const log = opts.log ?? defaultLog;
  const paths = registryPaths(resolveRegistryConfig(opts, process.env, process.cwd()).instanceDir);
  const running = await findRunning(paths, log);
  if (!running) return false;
  await stopAndForget(running.pid, paths, log);
  return true;
}

export async function registryStatus(opts: Pick<RegistryOptions, 'instanceDir' | 'port' | 'managementPort'> = {}): Promise<RegistryStatus> {
  const cfg = resolveRegistryConfig(opts, process.env, process.cwd());
  const paths = registryPaths(cfg.instanceDir);
  const recorded = await readRecorded(paths, parseRegistryState);
  if (recorded.kind === 'none' || !(await isOurRegistry(recorded.pid, cfg.instanceDir))) return { running: false, ready: false, logFile: paths.logFile };
  const { state } = recorded;
  const ready = await probeReady(readyUrl(state?.managementPort ?? cfg.managementPort));
  return { running: true, ready: ready.ok, url: state?.url ?? ccompatUrl(cfg.port), pid: recorded.pid, logFile: paths.logFile };
}

interface Running { pid: number; state: RegistryState | undefined }

/** The registry recorded in paths if it is still alive; stale records are removed. */
async function findRunning(paths: RegistryPaths, log: (line: string) => void): Promise<Running | undefined> {
  const recorded = await readRecorded(paths, parseRegistryState);
  if (recorded.kind === 'none') return undefined;
  if (await isOurRegistry(recorded.pid, paths.instanceDir)) return { pid: recorded.pid, state: recorded.state };
  log(`Removing stale pid file ${paths.pidFile} (pid ${recorded.pid} is not a running schema registry).`);
  await clearRecorded(paths, recorded.pid);
  return undefined;
}

async function reuse(running: Running, cfg: ResolvedRegistryConfig, paths: RegistryPaths, log: (line: string) => void): Promise<RegistryHandle> {
  const { pid, state } = running;
  if (state && (state.port !== cfg.port || state.managementPort !== cfg.managementPort)) {
    throw new Error(`The schema registry in ${cfg.instanceDir} is already running on ports ${state.port}/${state.managementPort}, not ${cfg.port}/${cfg.managementPort}. Use those ports, or stop it first (${stopIt(pid)}) to change SLUICE_REGISTRY_PORT.`);
  }
  if (state && state.version !== REGISTRY_VERSION) {
    log(`The running registry is Apicurio Registry ${state.version}; infra/registry/pom.xml pins ${REGISTRY_VERSION}. Stop it to upgrade (${stopIt(pid)}).`);
  }
  const url = state?.url ?? ccompatUrl(cfg.port);
  const ready = await waitRegistryReady(readyUrl(cfg.managementPort), cfg.startTimeoutMs, Date.now(), () => isAlive(pid));
  if (!ready.ok) {
    throw new Error(`The schema registry already running from ${cfg.instanceDir} (pid ${pid}) is not ready: ${ready.reason}. Stop it (${stopIt(pid)}) and retry.\n${await registryLogTail(paths.logFile)}`);
  }
  log(`Reusing the schema registry at ${url} (pid ${pid}).`);
  return { url, startedHere: false, logFile: paths.logFile, pid, stop: async () => {} };
}

async function startNew(cfg: ResolvedRegistryConfig, paths: RegistryPaths, log: (line: string) => void): Promise<RegistryHandle> {
  const java = await findRegistryJava(systemJavaLookup);
  await ensureRegistryDist({ pomDir: REGISTRY_POM_DIR, distDir: REGISTRY_DIST_DIR, version: REGISTRY_VERSION, log });
  for (const [port, what] of [[cfg.port, 'HTTP'], [cfg.managementPort, 'management']] as const) {
    if (!(await isPortFree(port))) {
      throw new Error(`Cannot start the local schema registry: its ${what} port ${port} on 127.0.0.1 is already in use by another process. Free it, or pick other ports with SLUICE_REGISTRY_PORT=<port> (management uses port + 1), or set SCHEMA_REGISTRY_URL to use an existing registry.`);
    }
  }
  await mkdir(paths.tmpDir, { recursive: true });
  await rename(paths.logFile, paths.previousLogFile).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
  });

  const started = Date.now();
  const args = registryJvmArgs({ distDir: REGISTRY_DIST_DIR, paths, port: cfg.port, managementPort: cfg.managementPort, heap: HEAP, persistent: cfg.persistent });
  const jvm = spawnRegistry({ java: java.java, args, logFile: paths.logFile, cwd: cfg.instanceDir });
  const { pid } = jvm;
  const url = ccompatUrl(cfg.port);
  await writeRecorded<RegistryState>(paths, {
    pid, url, port: cfg.port, managementPort: cfg.managementPort, version: REGISTRY_VERSION, startedAt: new Date(started).toISOString(),
  });

  const ready = await waitRegistryReady(readyUrl(cfg.managementPort), cfg.startTimeoutMs, started, () => jvm.exited() === undefined && isAlive(pid));
  if (!ready.ok) {
    const reason = jvm.exited() ?? ready.reason;
    await stopAndForget(pid, paths, () => {}, 5_000);
    throw new Error(`Apicurio Registry ${REGISTRY_VERSION} (Java ${java.major}, ${java.java}) did not start at ${url}: ${reason}.\n${await registryLogTail(paths.logFile)}`);
  }
  log(`Apicurio Registry ${REGISTRY_VERSION} ready at ${url} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${pid}, Java ${java.major} from ${java.from}, logs ${paths.logFile}).`);
  let stopping: Promise<void> | undefined;
  const stop = (): Promise<void> => (stopping ??= stopAndForget(pid, paths, log));
  return { url, startedHere: true, logFile: paths.logFile, pid, stop };
}

async function stopAndForget(pid: number, paths: RegistryPaths, log: (line: string) => void, graceMs = STOP_GRACE_MS): Promise<void> {
  const started = Date.now();
  log(`Stopping the schema registry (pid ${pid})…`);
  await stopProcessGroup(pid, graceMs, log, 'The schema registry');
  await clearRecorded(paths, pid);
  log(`Schema registry stopped in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}
