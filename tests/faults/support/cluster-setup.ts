/**
 * Starts the fault tier's three-node cluster (fresh data, `.sluice/kafka-faults`, ports
 * 28500-28505, both moved by the tier's SLUICE_TEST_PORT_OFFSET: cluster.ts) once for the tier,
 * and stops it at the end. Each test file takes a handle of its own with `faultCluster()`, which
 * reuses the running nodes and restarts any a previous file left down. `inject('kafkaBrokers')`
 * names all three nodes.
 */
import type { TestProject } from 'vitest/node';
import { ensureCluster, stopCluster } from '../../../infra/kafka/cluster.ts';
import { faultClusterConfig } from './cluster.ts';

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const started = Date.now();
  // The project's env (vitest.config.ts) reaches the test files, not this process: read it here.
  const where = faultClusterConfig({ ...process.env, ...(project.config.env as NodeJS.ProcessEnv | undefined) });
  const cluster = await ensureCluster({ ...where, freshData: true, log: (l) => console.log(`[kafka-faults] ${l}`) });
  // The shared test helpers (topics, offsets, the recorder harness) then talk to the cluster.
  project.provide('kafkaBrokers', cluster.bootstrap.join(','));
  console.log(`[kafka-faults] three nodes healthy in ${((Date.now() - started) / 1000).toFixed(1)} s: ${cluster.bootstrap.join(',')}`);
  // Whatever runs from the directory now: the files restart nodes with pids of their own.
  return async () => {
    await stopCluster({ instanceDir: where.instanceDir, basePort: where.basePort, log: (l) => console.log(`[kafka-faults] ${l}`) });
  };
}
