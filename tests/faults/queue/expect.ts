/** What every queue-mode fault scenario must show; each figure was printed by runQueueScenario before this. */
import { expect } from 'vitest';
import type { QueueScenarioResult } from '../support/queue-scenario.ts';

export function expectQueueSurvived(r: QueueScenarioResult): void {
  expect(r.producerFailed, 'records the producer could not deliver').toBe(0);
  expect(r.produced, 'records in the log the oracle counted, against what the producer wrote').toBe(r.acked);
  expect(r.produced, 'records in the log').toBeGreaterThan(0);
  expect(r.lost, 'records in the log no invocation ended on').toEqual([]);
  expect(r.unsettled, 'records no acceptance of which the broker applied').toEqual([]);
  expect(r.brokerLag, 'partitions where the broker counts records not acknowledged').toEqual([]);
  expect(r.deliveredAfterAcceptance, 'records delivered again after the broker applied their acceptance').toEqual([]);
  expect(r.acceptedTwice, 'records whose acceptance the broker applied for two deliveries').toEqual([]);
  expect(r.unexplained, 'duplicate deliveries nothing explains').toEqual([]);
  expect(r.inDestination, 'records in the on-failure destination (none failed)').toBe(0);
}
