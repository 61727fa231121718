/**
 * What `npm test` runs, and what runs side by side. The tiers mostly wait on brokers, so the
 * suite runs in lanes: the tiers of one lane one after another, the lanes at once. Each lane's
 * services (the shared broker and schema registry, the fault tier's cluster, the brokers and
 * servers files start for themselves) sit at ports and directories moved by its own
 * SLUICE_TEST_PORT_OFFSET (tests/support/ports.ts), so the same file can run in two lanes at once.
 * Pure data; infra/suite/run.ts runs it.
 */

export interface Tier {
  name: string;
  /** Arguments to the machine's `node`. */
  args: string[];
  /** A vitest tier: the runner adds its reporters (the JSON report is how it counts tests). */
  vitest: boolean;
  /** It uses the shared broker and schema registry (tests/support/services.ts), which the runner starts first. */
  services: boolean;
}

export interface Lane {
  name: string;
  tiers: Tier[];
  /** SLUICE_TEST_PORT_OFFSET of its tiers. Lanes with the same offset share the broker and registry. */
  portOffset: number;
}

export const VITEST = 'node_modules/vitest/vitest.mjs';

const vitest = (name: string, services: boolean): Tier => ({ name, args: [VITEST, 'run', '--project', name], vitest: true, services });

export const LANES: Lane[] = [
  // The longest lane sets the run's time: integration and faults (about 8 + 12 minutes) alone in it.
  { name: 'kafkajs', portOffset: 0, tiers: [vitest('integration', true), vitest('faults', false)] },
  // Queue mode's fault tier last (about 3 minutes, a three-node cluster of its own): by then the node lane has ended, and only the kafkajs lane's cluster runs beside it.
  { name: 'librdkafka', portOffset: 2000, tiers: [vitest('engines', true), vitest('faults-engines', false), vitest('faults-queue', false)] },
  // The hostile tier on librdkafka last: the kafkajs lane's integration tier (its own hostile run on this broker) has ended by then.
  { name: 'node', portOffset: 0, tiers: [vitest('unit', false), { name: 'node-versions', args: ['--import', 'tsx', 'infra/node-versions.ts'], vitest: false, services: true }, vitest('hostile-engines', true)] },
];

/** The whole run must end inside this (issue 38; CI stops at 90 minutes). */
export const BUDGET_MS = 40 * 60_000;
