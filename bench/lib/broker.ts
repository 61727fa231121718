/**
 * The bench's own Kafka: a separate instance directory and port, so it never collides with
 * the tests (28092), `npm start` (29092) or anyone's running broker. Fresh data each start; below
 * Linux's ephemeral range (32768+), so no client socket can hold its port.
 */
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';
import { ensureBroker, stopBroker, KAFKA_VERSION, type BrokerHandle } from '../../infra/kafka/broker.ts';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const BENCH_KAFKA_DIR = join(REPO_ROOT, '.sluice', 'kafka-bench');
export const BENCH_KAFKA_PORT = 28392;
export { KAFKA_VERSION };

export async function startBenchBroker(log: (line: string) => void): Promise<BrokerHandle> {
  return ensureBroker({ instanceDir: BENCH_KAFKA_DIR, port: BENCH_KAFKA_PORT, freshData: true, log: (l) => log(`[kafka] ${l}`) });
}

/** Stops the bench broker whether this run started it or reused one left by an interrupted run. */
export async function stopBenchBroker(log: (line: string) => void): Promise<void> {
  await stopBroker({ instanceDir: BENCH_KAFKA_DIR, log: (l) => log(`[kafka] ${l}`) });
}
