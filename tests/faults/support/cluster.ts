/** The fault tier's cluster, as each test file reaches it. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCluster, type ClusterHandle } from '../../../infra/kafka/cluster.ts';
import { portOffset } from '../../support/ports.ts';

/**
 * Ports 28500-28505 and `.sluice/kafka-faults`, each moved by the tier's SLUICE_TEST_PORT_OFFSET:
 * the kafkajs and librdkafka fault tiers run at once, each on a cluster of its own. Below Linux's
 * ephemeral range (32768-60999): while the integration tier runs, thousands of loopback client
 * sockets linger in TIME_WAIT, and one on a cluster port would fail its bind.
 */
export function faultClusterConfig(env: NodeJS.ProcessEnv = process.env): { instanceDir: string; basePort: number } {
  const offset = portOffset(env);
  // The queue-mode fault tier runs beside the kafkajs lane's, at the same offset: a cluster of its own, 20 ports up.
  const queue = env.SLUICE_FAULT_CLUSTER === 'queue';
  const name = `kafka-faults${queue ? '-queue' : ''}${offset ? `-${offset}` : ''}`;
  return { instanceDir: join(fileURLToPath(new URL('../../..', import.meta.url)), '.sluice', name), basePort: 28500 + (queue ? 20 : 0) + offset };
}

/** A handle on the running cluster; a node left down by an earlier file is started again first. */
export function faultCluster(): Promise<ClusterHandle> {
  return ensureCluster({ ...faultClusterConfig(), log: (l) => console.log(`[kafka-faults] ${l}`) });
}
