import { defineConfig } from 'vitest/config';

/**
 * One runner, five tiers (and `installed`, one end-to-end test again on other Node.js versions, and
 * `smoke`, a few integration files for `npm run test:quick`). Unit tests sit beside the pure modules
 * in framework/; integration and end-to-end tests talk to a real Apache Kafka that
 * tests/global-setup.ts starts (or the cluster named by KAFKA_BROKERS), and the integration tier
 * also gets the schema registry tests/registry-setup.ts starts (or SCHEMA_REGISTRY_URL); the fault
 * tier hurts the nodes of a local three-node cluster that tests/faults/support/cluster-setup.ts
 * starts. `npm test` runs the tiers in lanes side by side (infra/suite/lanes.ts) and files side by
 * side within a tier (maxWorkers); docs/testing.md has the times.
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['framework/**/*.test.ts', 'infra/**/*.test.ts', 'tests/faults/support/*.test.ts', 'tests/support/*.test.ts', 'bench/lib/*.test.ts'],
          // A hang guard, not a speed target: npm test runs this tier beside the other lanes, on busy cores.
          testTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/regressions/*.test.ts', 'tests/e2e/**/*.test.ts', 'tests/docs/*.test.ts'],
          exclude: ['tests/integration/rdkafka-engine.test.ts', 'tests/integration/rdkafka-commit.test.ts', 'tests/integration/rdkafka-producer.test.ts', 'tests/integration/static-membership.test.ts'],
          globalSetup: ['tests/setup/prerequisites.ts', 'tests/setup/tools.ts', 'tests/setup/tarball.ts', 'tests/global-setup.ts', 'tests/registry-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // Files run side by side: each has its own topics and groups on the shared broker, and
          // they wait on it far more than they compute (docs/testing.md has the measurements).
          maxWorkers: 4,
        },
      },
      {
        // `npm run test:quick`'s smoke of the integration tier (with the unit tier): consuming, committing,
        // filters, failures and retries, a restart, two members, health, and a handler invoked by the CLI.
        test: {
          name: 'smoke',
          include: ['tests/integration/{delivery,filter,restart,concurrency,group,failure,payload,progress-health}.test.ts', 'tests/e2e/invoke.test.ts'],
          globalSetup: ['tests/setup/prerequisites.ts', 'tests/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          maxWorkers: 4,
          // After the unit tier: vitest runs projects of different maxWorkers in groups of their own.
          sequence: { groupOrder: 1 },
        },
      },
      {
        // The installed-package test alone, with the broker but not the schema registry:
        // `npm run test:node-versions` runs it (and the unit tier) on Node.js 22 and 24 (infra/node-versions.ts).
        test: {
          name: 'installed',
          include: ['tests/e2e/installed-package.test.ts'],
          globalSetup: ['tests/setup/prerequisites.ts', 'tests/setup/tools.ts', 'tests/setup/tarball.ts', 'tests/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 180_000,
        },
      },
      {
        // The consuming, committing, rebalancing and failure tests again on the librdkafka engine
        // (KIP-848), the same files, and rdkafka-engine.test.ts (both engines side by side): `npm run test:engines`. heartbeats.test.ts is not among them: its
        // 10 s session is a kafkajs setting; with KIP-848 the session is the broker's (45 s by default).
        test: {
          name: 'engines',
          include: [
            'tests/integration/{failure,failure-policy,delivery,rebalance,rebalance-paths,retry-state,budget,concurrency,restart,filter,metrics,parallel,parallel-failures,starting-position}.test.ts',
            // Health and progress, destinations (on librdkafka, written by its idempotent producer), stops, lag.
            'tests/integration/{progress-health,destination-outage,kafka-destination-limits,process-stops,lag}.test.ts',
            // A batch that inflates past the bound (issue 40): Sluice's patch of librdkafka and its binding.
            'tests/integration/unreadable-batch.test.ts',
            // A broker killed -9 under the member (its own broker): librdkafka's member rides it out without a restart.
            'tests/integration/broker-restart.test.ts',
            'tests/integration/rdkafka-engine.test.ts',
            // Queue mode with engine: librdkafka set: its binding has no share consumer, so Sluice's share client runs it (docs/queue-mode.md).
            'tests/integration/queue-mode.test.ts',
            'tests/integration/{rdkafka-commit,rdkafka-producer}.test.ts',
            // parallelizationFactor: a kill -9 mid-run, and a broker of its own with offset.metadata.max.bytes 1,024.
            'tests/integration/{parallel-kill,parallel-metadata-bound}.test.ts',
            'tests/integration/static-membership.test.ts',
            // Authentication and TLS (their own brokers): SASL PLAIN/SCRAM, MSK IAM's OAUTHBEARER over TLS.
            'tests/integration/{sasl,msk-iam}.test.ts',
            'tests/regressions/partition-back-after-revoke-fetches.test.ts',
            // The regressions of the member's and the destination's side. heartbeat-session-gone-next-chunk-starts
            // is not among them: its proxy fails classic Heartbeats by member id, and a KIP-848 member sends none.
            'tests/regressions/{commit-refused-by-acl-keeps-invoking,sigterm-long-chunk-killed-without-commit,stop-waits-for-another-members-chunk}.test.ts',
            'tests/regressions/{destination-send-outlives-its-deadline,destination-copy-keeps-source-timestamp,header-named-constructor-crash-looped-the-trigger}.test.ts',
            'tests/regressions/{out-of-range-offset-jumps-to-log-end,latest-skips-records-after-restart,state-outlives-recreated-topic}.test.ts',
            // librdkafka and parallel chunks (issue 39): the seek barrier, fair turns between partitions, a batch's error as the member's crash, a retry at a log that ends in transaction markers.
            'tests/regressions/{parallel-read-ahead-past-seek-committed,fewer-batches-than-partitions-starves-some,batch-error-ends-process-without-leaving}.test.ts',
            'tests/regressions/{parallel-retry-at-transaction-marker-stalls,parallel-interleaved-keys-run-one-at-a-time}.test.ts',
          ],
          env: { SLUICE_TEST_ENGINE: 'librdkafka' },
          globalSetup: ['tests/setup/prerequisites.ts', 'tests/setup/engine-binding.ts', 'tests/global-setup.ts', 'tests/registry-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          maxWorkers: 3,
        },
      },
      {
        // The hostile-input tier again on the librdkafka engine (issue 40): `npm run test:hostile:engines`.
        // In the node lane, after node-versions, on that lane's shared broker and registry (infra/suite/lanes.ts).
        test: {
          name: 'hostile-engines',
          include: ['tests/integration/hostile/*.test.ts'],
          env: { SLUICE_TEST_ENGINE: 'librdkafka' },
          globalSetup: ['tests/setup/prerequisites.ts', 'tests/setup/engine-binding.ts', 'tests/global-setup.ts', 'tests/registry-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'faults',
          include: ['tests/faults/*.test.ts'],
          // librdkafka's producer: in faults-engines, beside the other scenarios on that engine.
          exclude: ['tests/faults/rdkafka-producer.test.ts'],
          globalSetup: ['tests/setup/prerequisites.ts', 'tests/faults/support/cluster-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // Queue mode (share groups) under the same faults, on a three-node cluster of its own
        // (SLUICE_FAULT_CLUSTER): `npm run test:faults:queue`.
        test: {
          name: 'faults-queue',
          include: ['tests/faults/queue/*.test.ts'],
          env: { SLUICE_FAULT_CLUSTER: 'queue' },
          globalSetup: ['tests/setup/prerequisites.ts', 'tests/faults/support/cluster-setup.ts'],
          testTimeout: 300_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
      {
        // The fault tier again on the librdkafka engine (KIP-848): `npm run test:faults:engines`.
        // kafkajs-1303-producer.test.ts is not among them: it tests kafkajs's producer (the
        // destination's on kafkajs); rdkafka-producer.test.ts puts librdkafka's through the same fault.
        test: {
          name: 'faults-engines',
          include: ['tests/faults/*.test.ts'],
          exclude: ['tests/faults/kafkajs-1303-producer.test.ts'],
          env: { SLUICE_TEST_ENGINE: 'librdkafka' },
          globalSetup: ['tests/setup/prerequisites.ts', 'tests/setup/engine-binding.ts', 'tests/faults/support/cluster-setup.ts'],
          testTimeout: 240_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
});
