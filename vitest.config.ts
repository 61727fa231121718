import { defineConfig } from 'vitest/config';

/**
 * One runner, three tiers. Unit tests sit beside the pure modules in framework/;
 * integration and end-to-end tests talk to a real Apache Kafka that tests/global-setup.ts
 * starts (or the cluster named by KAFKA_BROKERS).
 */
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'unit',
          include: ['framework/**/*.test.ts', 'infra/**/*.test.ts'],
        },
      },
      {
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts', 'tests/regressions/**/*.test.ts', 'tests/e2e/**/*.test.ts'],
          globalSetup: ['tests/global-setup.ts'],
          testTimeout: 180_000,
          hookTimeout: 120_000,
          // Tests share one broker and this machine has two cores: run files one at a time.
          fileParallelism: false,
        },
      },
    ],
  },
});
