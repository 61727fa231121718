/**
 * Starts the Kafka the integration and end-to-end tests need (tests/support/services.ts: a
 * single node on port 28092, moved by SLUICE_TEST_PORT_OFFSET, whose data is wiped whenever a new broker is started, so each run
 * begins clean), or uses the cluster named by KAFKA_BROKERS. Tests read the address with
 * `inject('kafkaBrokers')`. A broker already running (left by an interrupted run, or started by
 * `npm test`'s runner for every tier at once) is reused as is, and left running afterwards.
 */
import type { TestProject } from 'vitest/node';
import { testBroker } from './support/services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env['KAFKA_BROKERS']?.trim();
  if (external) {
    project.provide('kafkaBrokers', external);
    return async () => {};
  }
  const broker = await testBroker((line) => console.log(`[kafka] ${line}`));
  project.provide('kafkaBrokers', broker.bootstrap);
  return async () => {
    if (broker.startedHere) await broker.stop();
  };
}
