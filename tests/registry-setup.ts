/**
 * Starts the schema registry the integration tests need (tests/support/services.ts: Apicurio
 * Registry, Confluent API, on ports 28181/28182 from .sluice/registry-test, in memory), or uses
 * the one named by SCHEMA_REGISTRY_URL. Tests read the Confluent API base URL with
 * `inject('schemaRegistryUrl')`. A registry already running (left by an interrupted run, or
 * started by `npm test`'s runner) is reused as is, and left running afterwards; one started here
 * is stopped at the end.
 */
import type { TestProject } from 'vitest/node';
import { testRegistry } from './support/services.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    /** e.g. http://127.0.0.1:28181/apis/ccompat/v7 */
    schemaRegistryUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const registry = await testRegistry((line) => console.log(`[registry] ${line}`));
  project.provide('schemaRegistryUrl', registry.url);
  return async () => {
    if (registry.startedHere) await registry.stop();
  };
}
