/**
 * `npm start`'s schema registry: when a trigger's schemaRegistryUri names the local registry's
 * address (localhost or 127.0.0.1 on its port, 28081 or SLUICE_REGISTRY_PORT), the local
 * Apicurio Registry is started for the run (or the one already running is used), with its schemas
 * kept in a file under .sluice/registry so they outlive the run. Any other URL is left alone.
 */
import type { TriggerSpec } from '../config/types.ts';

const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);
const DEFAULT_PORT = 28081;

export interface LocalRegistry {
  readonly startedHere: boolean;
  stop(): Promise<void>;
}

export function namesLocalRegistry(uri: string, port: number): boolean {
  try {
    const url = new URL(uri);
    return url.protocol === 'http:' && LOCAL_HOSTS.has(url.hostname) && Number(url.port || 80) === port;
  } catch {
    return false;
  }
}

export async function localRegistryFor(triggers: readonly TriggerSpec[], log: (line: string) => void, env: Record<string, string | undefined> = process.env): Promise<LocalRegistry | undefined> {
  const port = env['SLUICE_REGISTRY_PORT'] ? Number(env['SLUICE_REGISTRY_PORT']) : DEFAULT_PORT;
  if (!triggers.some((t) => t.schemaRegistry && !t.schemaRegistry.glue && namesLocalRegistry(t.schemaRegistry.uri, port))) return undefined;
  // Loaded only here: it reads the registry's pom.xml, and most services never need it.
  const { ensureRegistry } = await import('../../infra/registry/registry.ts');
  return ensureRegistry({ port, persistent: true, log });
}
