/**
 * Pure decisions for the local Kafka broker: which directory and ports to use, the text of
 * server.properties and log4j2.properties, and parsing of what `mvn`, `java` and the pom say.
 * No I/O here; broker.ts and its helpers do the reading, writing and spawning.
 */
import path from 'node:path';
import { parseJsonState } from '../json-state.ts';
import { resolvePort, secondPort } from '../ports.ts';
import { withOAuthBearerListener, type OAuthBearerListener } from './oauth.ts';
import { withSaslListener, type SaslListener } from './sasl.ts';

export const DEFAULT_PORT = 29092;
export const DEFAULT_START_TIMEOUT_MS = 60_000;
/** Large enough for the 7 MB records the tests send, with headroom. */
export const MAX_MESSAGE_BYTES = 16 * 1024 * 1024;

export interface ResolvedBrokerConfig {
  instanceDir: string;
  port: number;
  controllerPort: number;
  startTimeoutMs: number;
}

export interface ConfigInput {
  instanceDir?: string;
  port?: number;
  controllerPort?: number;
  startTimeoutMs?: number;
}

/** Explicit options win over SLUICE_KAFKA_PORT / SLUICE_KAFKA_DIR, which win over defaults. */
export function resolveBrokerConfig(
  opts: ConfigInput,
  env: Record<string, string | undefined>,
  repoRoot: string,
): ResolvedBrokerConfig {
  const port = resolvePort(opts.port, env, 'SLUICE_KAFKA_PORT', DEFAULT_PORT);
  const controllerPort = secondPort(opts.controllerPort, port, 'controllerPort', DEFAULT_PORT);
  const startTimeoutMs = opts.startTimeoutMs ?? DEFAULT_START_TIMEOUT_MS;
  if (!Number.isFinite(startTimeoutMs) || startTimeoutMs < 1_000) {
    throw new Error(`startTimeoutMs must be at least 1000 (got ${startTimeoutMs}); a cold start takes a few seconds.`);
  }
  const dir = opts.instanceDir ?? env['SLUICE_KAFKA_DIR'] ?? path.join(repoRoot, '.sluice', 'kafka');
  return { instanceDir: path.resolve(repoRoot, dir), port, controllerPort, startTimeoutMs };
}

export interface InstancePaths {
  dataDir: string;
  pidFile: string;
  stateFile: string;
  serverProperties: string;
  log4jProperties: string;
  logFile: string;
  previousLogFile: string;
  outFile: string;
}

export function instancePaths(instanceDir: string): InstancePaths {
  const at = (name: string): string => path.join(instanceDir, name);
  return {
    dataDir: at('data'),
    pidFile: at('kafka.pid'),
    stateFile: at('broker.json'),
    serverProperties: at('server.properties'),
    log4jProperties: at('log4j2.properties'),
    logFile: at('server.log'),
    previousLogFile: at('server.log.prev'),
    outFile: at('kafka.out'),
  };
}

/** One node of a local cluster (cluster.ts): its id and every controller's port (static quorum). */
export interface ClusterMember {
  nodeId: number;
  voters: Array<{ nodeId: number; controllerPort: number }>;
}

/**
 * A node of a three-node cluster replicates everything three ways and acknowledges with two
 * (what production clusters run), and keeps its threads few so three JVMs fit on two cores.
 */
const CLUSTER_SETTINGS: Array<[string, string | number | boolean]> = [
  ['default.replication.factor', 3],
  ['min.insync.replicas', 2],
  ['offsets.topic.replication.factor', 3],
  ['offsets.topic.num.partitions', 12],
  ['transaction.state.log.replication.factor', 3],
  ['transaction.state.log.min.isr', 2],
  ['share.coordinator.state.topic.replication.factor', 3],
  ['share.coordinator.state.topic.min.isr', 2],
  ['num.network.threads', 2],
  ['num.io.threads', 2],
  ['background.threads', 2],
  ['num.replica.fetchers', 1],
  ['log.cleaner.threads', 1],
  ['unclean.leader.election.enable', false],
];

export function renderServerProperties(p: {
  port: number; controllerPort: number; dataDir: string; sasl?: SaslListener; oauthBearer?: OAuthBearerListener; cluster?: ClusterMember;
  /** Tell clients to connect to this port instead of `port` (a proxy in front of the broker, for fault tests). */
  advertisedPort?: number;
  /** Set after the defaults, replacing any of the same name. */
  settings?: Record<string, string | number | boolean>;
}): string {
  const quorum: [string, string] = p.cluster
    ? ['controller.quorum.voters', p.cluster.voters.map((v) => `${v.nodeId}@127.0.0.1:${v.controllerPort}`).join(',')]
    : ['controller.quorum.bootstrap.servers', `127.0.0.1:${p.controllerPort}`];
  const single: Array<[string, string | number | boolean]> = [
    ['offsets.topic.replication.factor', 1],
    ['transaction.state.log.replication.factor', 1],
    ['transaction.state.log.min.isr', 1],
    ['share.coordinator.state.topic.replication.factor', 1],
    ['share.coordinator.state.topic.min.isr', 1],
  ];
  const base: Array<[string, string | number | boolean]> = [
    ['process.roles', 'broker,controller'],
    ['node.id', p.cluster?.nodeId ?? 1],
    quorum,
    ['listeners', `PLAINTEXT://127.0.0.1:${p.port},CONTROLLER://127.0.0.1:${p.controllerPort}`],
    ['advertised.listeners', `PLAINTEXT://127.0.0.1:${p.advertisedPort ?? p.port}`],
    ['controller.listener.names', 'CONTROLLER'],
    ['listener.security.protocol.map', 'PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT'],
    ['inter.broker.listener.name', 'PLAINTEXT'],
    ['log.dirs', toPropertiesPath(p.dataDir)],
    ['num.partitions', 1],
    ['auto.create.topics.enable', false],
    ...(p.cluster ? CLUSTER_SETTINGS : single),
    // After an unclean exit (kill -9) the restarted node waits out its own old registration:
    // keep that wait at 4 s instead of the default 9 s.
    ['broker.session.timeout.ms', 4000],
    ['broker.heartbeat.interval.ms', 1000],
    ['group.initial.rebalance.delay.ms', 0],
    ['group.min.session.timeout.ms', 6000],
    ['message.max.bytes', MAX_MESSAGE_BYTES],
    ['replica.fetch.max.bytes', MAX_MESSAGE_BYTES],
    ['socket.request.max.bytes', 4 * MAX_MESSAGE_BYTES],
  ];
  const withSasl = p.sasl ? withSaslListener(base, p.sasl) : base;
  const listened = p.oauthBearer ? withOAuthBearerListener(withSasl, p.oauthBearer, toPropertiesPath) : withSasl;
  const overridden = new Set(Object.keys(p.settings ?? {}));
  const props = [...listened.filter(([k]) => !overridden.has(k)), ...Object.entries(p.settings ?? {})];
  return ['# Written by infra/kafka on every start; edit infra/kafka/config.ts instead.', ...props.map(([k, v]) => `${k}=${v}`), ''].join('\n');
}

/** log4j2 in .properties form: one File appender, INFO, the chattiest loggers at WARN. */
export function renderLog4jProperties(logFile: string): string {
  const quiet = ['org.apache.kafka.common.config.AbstractConfig', 'kafka.request.logger', 'kafka.cluster.Partition', 'kafka.network.RequestChannel$', 'state.change.logger', 'kafka.log.LogCleaner', 'org.apache.kafka.storage.internals.log'];
  return [
    'status = warn',
    'name = sluice-local-kafka',
    'appender.file.type = File',
    'appender.file.name = FILE',
    `appender.file.fileName = ${toPropertiesPath(logFile)}`,
    'appender.file.append = true',
    'appender.file.layout.type = PatternLayout',
    'appender.file.layout.pattern = [%d] %p %m (%c)%n',
    'rootLogger.level = INFO',
    'rootLogger.appenderRef.file.ref = FILE',
    ...quiet.flatMap((name, i) => [`logger.quiet${i}.name = ${name}`, `logger.quiet${i}.level = WARN`]),
    '',
  ].join('\n');
}

/** Backslashes are escapes in .properties files; Java accepts forward slashes everywhere. */
function toPropertiesPath(p: string): string {
  return p.replaceAll('\\', '/');
}

export function parseKafkaVersion(pomXml: string): string {
  const match = /<kafka\.version>\s*([^<\s]+)\s*<\/kafka\.version>/.exec(pomXml);
  if (!match?.[1]) throw new Error('infra/kafka/pom.xml has no <kafka.version> property; add one, e.g. <kafka.version>4.4.0</kafka.version>.');
  return match[1];
}

/** Major version from `java -version` output: `openjdk version "17.0.15"` -> 17, `"1.8.0_392"` -> 8. */
export function parseJavaMajor(versionOutput: string): number | undefined {
  const match = /version "(\d+)(?:\.(\d+))?[^"]*"/.exec(versionOutput);
  if (!match?.[1]) return undefined;
  const first = Number(match[1]);
  return first === 1 && match[2] ? Number(match[2]) : first;
}

/**
 * A Kafka cluster id as `kafka-storage random-uuid` makes it: 16 random bytes, base64url
 * without padding. Kafka rejects ids that start with '-', so those return undefined.
 */
export function clusterIdFromBytes(bytes: Uint8Array): string | undefined {
  if (bytes.length !== 16) throw new Error(`a cluster id needs 16 bytes, got ${bytes.length}`);
  const id = Buffer.from(bytes).toString('base64url');
  return id.startsWith('-') ? undefined : id;
}

export function tailLines(text: string, count: number): string {
  const lines = text.replace(/\n+$/, '').split('\n');
  return lines.slice(-count).join('\n');
}

export interface BrokerState {
  pid: number;
  bootstrap: string;
  port: number;
  controllerPort: number;
  kafkaVersion: string;
  startedAt: string;
}

/** Validates broker.json; returns undefined for anything that is not a state we wrote. */
export function parseBrokerState(text: string): BrokerState | undefined {
  return parseJsonState<BrokerState>(text, {
    pid: 'int', bootstrap: 'string', port: 'int', controllerPort: 'int', kafkaVersion: 'string', startedAt: 'string',
  });
}
