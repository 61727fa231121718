/**
 * Pure decisions for the local schema registry (Apicurio Registry, Confluent-compatible API):
 * which directory and ports, the JVM's command line, the URLs, and parsing of the pom and of
 * the state file. No I/O here; registry.ts and its helpers read, write and spawn.
 */
import path from 'node:path';
import { parseJsonState } from '../json-state.ts';
import { resolvePort, secondPort } from '../ports.ts';

export const DEFAULT_PORT = 28081;
export const DEFAULT_START_TIMEOUT_MS = 60_000;
/** The Confluent Schema Registry API of Apicurio Registry 3, under its HTTP port. */
export const CCOMPAT_PATH = '/apis/ccompat/v7';
/** Readiness (all storage checks UP) on the management port. */
export const READY_PATH = '/health/ready';

export interface RegistryConfigInput {
  instanceDir?: string;
  port?: number;
  managementPort?: number;
  startTimeoutMs?: number;
  /** Keep the schemas in an H2 file under the instance directory, so a restarted registry still has them. Default: in memory. */
  persistent?: boolean;
}

export interface ResolvedRegistryConfig {
  instanceDir: string;
  port: number;
  managementPort: number;
  startTimeoutMs: number;
  persistent: boolean;
}

/** Explicit options win over SLUICE_REGISTRY_PORT / SLUICE_REGISTRY_DIR, which win over defaults. */
export function resolveRegistryConfig(opts: RegistryConfigInput, env: Record<string, string | undefined>, cwd: string): ResolvedRegistryConfig {
  const port = resolvePort(opts.port, env, 'SLUICE_REGISTRY_PORT', DEFAULT_PORT);
  const managementPort = secondPort(opts.managementPort, port, 'managementPort', DEFAULT_PORT);
  const startTimeoutMs = opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  if (!Number.isFinite(startTimeoutMs) || startTimeoutMs < 1_000) {
    throw new Error(`startTimeoutMs must be at least 1000 (got ${startTimeoutMs}); a cold start of the registry takes 5-10 s.`);
  }
  const dir = opts.instanceDir ?? env['SLUICE_REGISTRY_DIR'] ?? path.join(cwd, '.sluice', 'registry');
  return { instanceDir: path.resolve(cwd, dir), port, managementPort, startTimeoutMs, persistent: opts.persistent ?? false };
}

export interface RegistryPaths {
  instanceDir: string;
  pidFile: string;
  stateFile: string;
  /** The JVM's stdout and stderr (Quarkus logs to the console). */
  logFile: string;
  previousLogFile: string;
  /** java.io.tmpdir of the JVM (Vert.x's file cache), kept out of the shared /tmp. */
  tmpDir: string;
}

export function registryPaths(instanceDir: string): RegistryPaths {
  const at = (name: string): string => path.join(instanceDir, name);
  return {
    instanceDir,
    pidFile: at('registry.pid'),
    stateFile: at('registry.json'),
    logFile: at('registry.log'),
    previousLogFile: at('registry.log.prev'),
    tmpDir: at('tmp'),
  };
}

export function ccompatUrl(port: number): string {
  return `http://127.0.0.1:${port}${CCOMPAT_PATH}`;
}

export function readyUrl(managementPort: number): string {
  return `http://127.0.0.1:${managementPort}${READY_PATH}`;
}

/** Names the instance on the JVM's command line, so a reused pid is never mistaken for ours. */
export function instanceMarker(instanceDir: string): string {
  return `-Dsluice.registry.instance=${instanceDir}`;
}

/**
 * The JVM's arguments: loopback only, in-memory H2 (Apicurio's default storage), and BACKWARD as
 * the global compatibility rule, Confluent's default (Apicurio's own is NONE).
 */
export function registryJvmArgs(p: { distDir: string; paths: RegistryPaths; port: number; managementPort: number; heap: string; persistent?: boolean }): string[] {
  return [
    // A file database instead of the default `jdbc:h2:mem:…`: the schemas outlive a restart.
    ...(p.persistent ? [`-Dapicurio.datasource.url=jdbc:h2:file:${path.join(p.paths.instanceDir, 'data', 'registry')}`] : []),
    `-Xmx${p.heap}`,
    '-Djava.awt.headless=true',
    `-Djava.io.tmpdir=${p.paths.tmpDir}`,
    instanceMarker(p.paths.instanceDir),
    '-Dquarkus.http.host=127.0.0.1',
    `-Dquarkus.http.port=${p.port}`,
    '-Dquarkus.management.host=127.0.0.1',
    `-Dquarkus.management.port=${p.managementPort}`,
    '-Dapicurio.rules.global.compatibility=BACKWARD',
    // The packaged format prints dates as "2026-12+00-01"; an ISO-like one reads better in a tail.
    '-Dquarkus.log.console.format=%d{yyyy-MM-dd HH:mm:ss,SSS} %-5p [%c{1}] (%t) %m%n',
    '-jar',
    path.join(p.distDir, 'quarkus-run.jar'),
  ];
}

export function parseRegistryVersion(pomXml: string): string {
  const match = /<registry\.version>\s*([^<\s]+)\s*<\/registry\.version>/.exec(pomXml);
  if (!match?.[1]) throw new Error('infra/registry/pom.xml has no <registry.version> property; add one, e.g. <registry.version>3.3.3</registry.version>.');
  return match[1];
}

export interface RegistryState {
  pid: number;
  url: string;
  port: number;
  managementPort: number;
  version: string;
  startedAt: string;
}

/** Validates registry.json; undefined for anything that is not a state we wrote. */
export function parseRegistryState(text: string): RegistryState | undefined {
  return parseJsonState<RegistryState>(text, {
    pid: 'int', url: 'string', port: 'int', managementPort: 'int', version: 'string', startedAt: 'string',
  });
}
