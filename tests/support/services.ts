/**
 * The services the integration-side tiers share: one single-node Kafka on 28092 (fresh data
 * whenever a new one starts) and one schema registry on 28181, both moved by the lane's
 * SLUICE_TEST_PORT_OFFSET (ports.ts). The tiers' global setups call these (tests/global-setup.ts,
 * tests/registry-setup.ts), and so does `npm test`'s runner before it starts the tiers side by
 * side (infra/suite/run.ts): a service already running from the same directory is reused as is,
 * and stopped only by whoever started it.
 */
import { ensureBroker, type BrokerHandle } from '../../infra/kafka/broker.ts';
import { ensureRegistry, type RegistryHandle } from '../../infra/registry/registry.ts';
import { testInstanceDir, testPort } from './ports.ts';

/** Controller on port + 1; below Linux's ephemeral range (32768+), so no client socket can hold it when the broker starts. */
export function testBroker(log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<BrokerHandle> {
  return ensureBroker({ instanceDir: testInstanceDir('kafka-test', env), port: testPort(28092, env), freshData: true, log });
}

/**
 * How long a test waits for a registry to start: a cold start takes 5-10 s on a quiet machine and
 * about 30 s beside the other lanes here, but stop 51's CI (three lanes on two slower cores) was
 * still inside Quarkus's start after 60 s, the default a user gets.
 */
export const TEST_REGISTRY_START_MS = 150_000;

/** Its H2 storage is in memory, so a new one begins empty. SCHEMA_REGISTRY_URL names one to use instead. */
export function testRegistry(log: (line: string) => void, env: NodeJS.ProcessEnv = process.env): Promise<RegistryHandle> {
  return ensureRegistry({
    instanceDir: testInstanceDir('registry-test', env), port: testPort(28181, env), managementPort: testPort(28182, env), log, startTimeoutMs: TEST_REGISTRY_START_MS,
  });
}
