/**
 * Starts the Kafka the integration and end-to-end tests need (a single node on port 28092 whose
 * data is wiped whenever a new broker is started, so each run begins clean), or uses the cluster
 * named by KAFKA_BROKERS. Tests read the address with `inject('kafkaBrokers')`.
 * A broker left running by an interrupted run is reused as is, and left running afterwards.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureBroker } from '../infra/kafka/broker.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    kafkaBrokers: string;
  }
}

const INSTANCE_DIR = join(fileURLToPath(new URL('..', import.meta.url)), '.sluice', 'kafka-test');
const PORT = 28092; // controller 28093; below Linux's ephemeral range (32768+), so no client socket can hold it when the broker starts

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const external = process.env['KAFKA_BROKERS']?.trim();
  if (external) {
    project.provide('kafkaBrokers', external);
    return async () => {};
  }
  const broker = await ensureBroker({
    instanceDir: INSTANCE_DIR,
    port: PORT,
    freshData: true,
    log: (line) => console.log(`[kafka] ${line}`),
  });
  project.provide('kafkaBrokers', broker.bootstrap);
  return async () => {
    if (broker.startedHere) await broker.stop();
  };
}
