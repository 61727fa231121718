/**
 * Starts the schema registry the integration tests need (Apicurio Registry, Confluent API, on
 * ports 28181/28182 from .sluice/registry-test; its H2 storage is in memory, so a new one
 * begins empty), or uses the one named by SCHEMA_REGISTRY_URL. Tests read the Confluent API base
 * URL with `inject('schemaRegistryUrl')`. A registry left running by an interrupted run is
 * reused as is, and left running afterwards; one started here is stopped at the end.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';
import { ensureRegistry } from '../infra/registry/registry.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** e.g. http://127.0.0.1:28181/apis/ccompat/v7 */
    schemaRegistryUrl: string;
  }
}

const INSTANCE_DIR = join(fileURLToPath(new URL('..', import.meta.url)), '.sluice', 'registry-test');
const PORT = 28181;
const MANAGEMENT_PORT = 28182;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const registry = await ensureRegistry({
    instanceDir: INSTANCE_DIR,
    port: PORT,
    managementPort: MANAGEMENT_PORT,
    log: (line) => console.log(`[registry] ${line}`),
  });
  project.provide('schemaRegistryUrl', registry.url);
  return async () => {
    if (registry.startedHere) await registry.stop();
  };
}
