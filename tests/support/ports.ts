/**
 * Fixed ports and directories of the services the tests start: the shared broker and schema
 * registry (services.ts), the fault tier's cluster, and those a file starts for itself (a broker
 * with SASL, one it kills, a moto server). `npm test` runs a file in two tiers at once (the
 * integration tier on kafkajs, the engines tier on librdkafka), so each lane moves all of them by
 * its own SLUICE_TEST_PORT_OFFSET (infra/suite/lanes.ts); two checkouts can run their suites at
 * once the same way. Every port stays below Linux's ephemeral range (32768+): no client socket
 * can hold it when the service starts.
 */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const SLUICE_DIR = join(fileURLToPath(new URL('../..', import.meta.url)), '.sluice');
/** The highest fixed port a test uses (destination-outage's black hole); a new one above it raises this. */
const HIGHEST_BASE_PORT = 28773;
const MAX_OFFSET = 32767 - HIGHEST_BASE_PORT;

export function portOffset(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env['SLUICE_TEST_PORT_OFFSET']?.trim();
  if (!raw) return 0;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > MAX_OFFSET) throw new Error(`SLUICE_TEST_PORT_OFFSET=${raw}: an integer 0–${MAX_OFFSET} (tests' ports, up to ${HIGHEST_BASE_PORT}, stay below 32768 with it), or unset.`);
  return n;
}

/** `port` moved by this tier's offset. */
export function testPort(port: number, env: NodeJS.ProcessEnv = process.env): number {
  return port + portOffset(env);
}

/** `.sluice/<name>`, apart per tier: `.sluice/<name>-<offset>` where the tier has an offset. */
export function testInstanceDir(name: string, env: NodeJS.ProcessEnv = process.env): string {
  const offset = portOffset(env);
  return join(SLUICE_DIR, offset ? `${name}-${offset}` : name);
}
