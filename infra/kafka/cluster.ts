/**
 * A local three-node Kafka cluster (KRaft; each node a combined broker + controller, a static
 * quorum of three voters) from the same jars as the single broker, for the fault tier and for
 * anyone who wants one (`npm run kafka -- start --nodes 3`). Topics replicate three ways and
 * acknowledge with two in sync. Each node has its own directory (`node-<id>/`: data, pid,
 * properties, logs) and ports (client basePort + 2(id - 1), controller the next port), and can be
 * killed (-9), stopped cleanly, paused, resumed and restarted on its data while the others run.
 */
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { SluiceError } from '../../framework/errors.ts';
import { clearRecorded, readRecorded, writeRecorded } from '../process-state.ts';
import { KAFKA_DIR, KAFKA_VERSION, LIB_DIR } from './broker.ts';
import {
  instancePaths, parseBrokerState, renderLog4jProperties, renderServerProperties, type BrokerState, type ClusterMember, type InstancePaths,
} from './config.ts';
import { spawnKafka } from './jvm.ts';
import { logTails } from './logs.ts';
import { isAlive, isOurBroker, signalGroup, stopProcessGroup, waitForExit } from './process.ts';
import { isPortFree, waitReady } from './probe.ts';
import { replicationHealth } from './topology.ts';
import { formatStorage, isFormatted, newClusterId } from './storage.ts';
import { checkJava, ensureJars } from './toolchain.ts';

export const CLUSTER_BASE_PORT = 29192;
const HEAP: [string, string] = ['128m', '512m'];
const START_TIMEOUT_MS = 90_000;

export interface ClusterOptions {
  /** Default `<repo>/.sluice/kafka-cluster`. */
  instanceDir?: string;
  basePort?: number;
  /** Wipe every node's data first (stopping any node still running from this directory). */
  freshData?: boolean;
  log?: (line: string) => void;
}

export interface ClusterNode {
  readonly id: number;
  readonly port: number;
  readonly controllerPort: number;
  readonly bootstrap: string;
  readonly paths: InstancePaths;
}

export interface ClusterHandle {
  /** Every node's client address. */
  readonly bootstrap: string[];
  readonly nodes: readonly ClusterNode[];
  node(id: number): ClusterNode;
  pid(id: number): number | undefined;
  /** SIGKILL, and wait until the process is gone. */
  kill(id: number): Promise<void>;
  /** A clean shutdown (SIGTERM; the node hands off its leaderships first). */
  stop(id: number): Promise<void>;
  pause(id: number): void;
  resume(id: number): void;
  /** Starts a node that is down, on its data, and waits until it answers. */
  start(id: number): Promise<void>;
  /** All nodes registered and every partition of `topics` (and `__consumer_offsets`) with its full replica set in sync. */
  waitHealthy(topics?: string[], timeoutMs?: number): Promise<void>;
  stopAll(): Promise<void>;
}

const NODE_IDS = [1, 2, 3];

const defaultLog = (line: string): void => console.error(`[sluice:kafka-cluster] ${line}`);

function layout(o: ClusterOptions): { dir: string; nodes: ClusterNode[] } {
  const dir = path.resolve(o.instanceDir ?? path.join(KAFKA_DIR, '..', '..', '.sluice', 'kafka-cluster'));
  const base = o.basePort ?? CLUSTER_BASE_PORT;
  const nodes = NODE_IDS.map((id) => {
    const port = base + 2 * (id - 1);
    return { id, port, controllerPort: port + 1, bootstrap: `127.0.0.1:${port}`, paths: instancePaths(path.join(dir, `node-${id}`)) };
  });
  return { dir, nodes };
}

/** The nodes running from this directory (stale records removed), by id. */
async function runningNodes(nodes: ClusterNode[]): Promise<Map<number, number>> {
  const pids = new Map<number, number>();
  for (const n of nodes) {
    const recorded = await readRecorded(n.paths, parseBrokerState);
    if (recorded.kind === 'recorded' && (await isOurBroker(recorded.pid, n.paths.serverProperties))) pids.set(n.id, recorded.pid);
    else if (recorded.kind === 'recorded') await clearRecorded(n.paths, recorded.pid);
  }
  return pids;
}

/** Each node's client address and pid, if it runs. */
export async function clusterStatus(o: Omit<ClusterOptions, 'freshData' | 'log'> = {}): Promise<Array<{ id: number; bootstrap: string; pid?: number; logFile: string }>> {
  const { nodes } = layout(o);
  const pids = await runningNodes(nodes);
  return nodes.map((n) => ({ id: n.id, bootstrap: n.bootstrap, ...(pids.has(n.id) ? { pid: pids.get(n.id)! } : {}), logFile: n.paths.logFile }));
}

/** Stops every node running from this directory; false when none was. */
export async function stopCluster(o: Omit<ClusterOptions, 'freshData'> = {}): Promise<boolean> {
  const log = o.log ?? defaultLog;
  const { nodes } = layout(o);
  const pids = await runningNodes(nodes);
  await Promise.all([...pids].map(([id, pid]) => (signalGroup(pid, 'SIGCONT'), stopNode(nodes[id - 1]!, pid, log))));
  return pids.size > 0;
}

/** Starts the nodes not running yet (reusing those that are) and returns once the cluster is healthy. */
export async function ensureCluster(o: ClusterOptions = {}): Promise<ClusterHandle> {
  const log = o.log ?? defaultLog;
  const { dir, nodes } = layout(o);
  const voters = nodes.map((n) => ({ nodeId: n.id, controllerPort: n.controllerPort }));
  const java = await checkJava(process.env);
  await ensureJars({ kafkaDir: KAFKA_DIR, libDir: LIB_DIR, version: KAFKA_VERSION, log });
  const pids = await runningNodes(nodes);
  if (o.freshData) {
    for (const [id, pid] of pids) await stopNode(nodes[id - 1]!, pid, () => undefined);
    pids.clear();
    await rm(dir, { recursive: true, force: true });
  }
  const clusterId = await clusterIdOf(dir);
  const node = (id: number): ClusterNode => {
    const n = nodes[id - 1];
    if (!n) throw new Error(`the cluster has nodes ${NODE_IDS.join(', ')}, not ${id}`);
    return n;
  };
  const pidOf = (id: number): number => {
    const pid = pids.get(id);
    if (pid === undefined) throw new Error(`node ${id} is not running`);
    return pid;
  };

  const launch = async (n: ClusterNode): Promise<void> => {
    if (pids.has(n.id)) return;
    for (const port of [n.port, n.controllerPort]) {
      if (!(await isPortFree(port))) throw new SluiceError('KAFKA_START_FAILED', `Cannot start node ${n.id} of the local Kafka cluster: port ${port} on 127.0.0.1 is in use. Free it or pick another basePort.`);
    }
    const member: ClusterMember = { nodeId: n.id, voters };
    await mkdir(n.paths.dataDir, { recursive: true });
    await writeFile(n.paths.serverProperties, renderServerProperties({ port: n.port, controllerPort: n.controllerPort, dataDir: n.paths.dataDir, cluster: member }));
    await writeFile(n.paths.log4jProperties, renderLog4jProperties(n.paths.logFile));
    await rename(n.paths.logFile, n.paths.previousLogFile).catch(() => undefined);
    if (!isFormatted(n.paths.dataDir)) {
      await formatStorage({ java, libDir: LIB_DIR, serverProperties: n.paths.serverProperties, log4jProperties: n.paths.log4jProperties, clusterId });
    }
    const started = Date.now();
    const spawned = spawnKafka({ java, libDir: LIB_DIR, paths: n.paths, cwd: path.dirname(n.paths.dataDir), heap: HEAP });
    pids.set(n.id, spawned.pid);
    await writeRecorded<BrokerState>(n.paths, {
      pid: spawned.pid, bootstrap: n.bootstrap, port: n.port, controllerPort: n.controllerPort, kafkaVersion: KAFKA_VERSION, startedAt: new Date(started).toISOString(),
    });
    const ready = await waitReady(n.bootstrap, START_TIMEOUT_MS, started, () => spawned.exited() === undefined && isAlive(spawned.pid));
    if (!ready.ok) {
      throw new SluiceError('KAFKA_START_FAILED', `Node ${n.id} of the local Kafka cluster did not start at ${n.bootstrap}: ${spawned.exited() ?? ready.reason}.\n${await logTails(n.paths)}`);
    }
    log(`node ${n.id} ready at ${n.bootstrap} in ${((Date.now() - started) / 1000).toFixed(1)} s (pid ${spawned.pid})`);
  };

  const handle: ClusterHandle = {
    bootstrap: nodes.map((n) => n.bootstrap),
    nodes,
    node,
    pid: (id) => pids.get(id),
    async kill(id) {
      const pid = pidOf(id);
      signalGroup(pid, 'SIGKILL');
      if (!(await waitForExit(pid, 10_000))) throw new Error(`node ${id} (pid ${pid}) is still running 10 s after SIGKILL`);
      pids.delete(id);
      await clearRecorded(node(id).paths, pid);
      log(`node ${id} killed (-9)`);
    },
    async stop(id) {
      signalGroup(pidOf(id), 'SIGCONT'); // a paused JVM cannot shut down cleanly
      await stopNode(node(id), pidOf(id), log);
      pids.delete(id);
    },
    pause(id) {
      signalGroup(pidOf(id), 'SIGSTOP');
      log(`node ${id} paused`);
    },
    resume(id) {
      signalGroup(pidOf(id), 'SIGCONT');
      log(`node ${id} resumed`);
    },
    start: (id) => launch(node(id)),
    waitHealthy: (topics = [], timeoutMs = 60_000) => waitHealthy(handle.bootstrap, topics, timeoutMs),
    async stopAll() {
      await Promise.all([...pids].map(async ([id, pid]) => {
        signalGroup(pid, 'SIGCONT'); // a paused JVM cannot shut down
        await stopNode(node(id), pid, log);
      }));
      pids.clear();
    },
  };
  try {
    // Together: a node's broker waits for a controller quorum, which needs two of them up.
    const launched = await Promise.allSettled(nodes.map(launch));
    const failed = launched.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
    await handle.waitHealthy();
  } catch (e) {
    await handle.stopAll().catch(() => undefined);
    throw e;
  }
  return handle;
}

async function stopNode(n: ClusterNode, pid: number, log: (line: string) => void): Promise<void> {
  const started = Date.now();
  await stopProcessGroup(pid, 30_000, log);
  await clearRecorded(n.paths, pid);
  log(`node ${n.id} stopped in ${((Date.now() - started) / 1000).toFixed(1)} s`);
}

/** The cluster id every node is formatted with, kept beside the nodes. */
async function clusterIdOf(dir: string): Promise<string> {
  const file = path.join(dir, 'cluster-id');
  try {
    return (await readFile(file, 'utf8')).trim();
  } catch {
    const id = newClusterId();
    await mkdir(dir, { recursive: true });
    await writeFile(file, `${id}\n`);
    return id;
  }
}

async function waitHealthy(bootstrap: string[], topics: string[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last = 'no answer yet';
  while (Date.now() < deadline) {
    const health = await replicationHealth(bootstrap, topics);
    if (health.ok) return;
    last = health.reason;
    await sleep(250);
  }
  throw new Error(`the local Kafka cluster is not healthy within ${Math.round(timeoutMs / 1000)} s: ${last}`);
}
