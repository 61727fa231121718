/** The fault tier's cluster, as each test file reaches it. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ensureCluster, type ClusterHandle } from '../../../infra/kafka/cluster.ts';

export const FAULT_CLUSTER = {
  instanceDir: join(fileURLToPath(new URL('../../..', import.meta.url)), '.sluice', 'kafka-faults'),
  // Below Linux's ephemeral range (32768-60999): right after the integration tier, thousands of
  // loopback client sockets linger in TIME_WAIT, and one on a cluster port fails its bind.
  basePort: 28500,
};

/** A handle on the running cluster; a node left down by an earlier file is started again first. */
export function faultCluster(): Promise<ClusterHandle> {
  return ensureCluster({ ...FAULT_CLUSTER, log: (l) => console.log(`[kafka-faults] ${l}`) });
}
