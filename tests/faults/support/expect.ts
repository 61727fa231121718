/** What every fault scenario must show; each figure was printed by runScenario before this. */
import { expect } from 'vitest';
import type { ScenarioResult } from './scenario.ts';

export function expectSurvived(r: ScenarioResult): void {
  expect(r.producerFailed, 'records the producer could not deliver').toBe(0);
  expect(r.lost, 'records in the log no invocation completed').toEqual([]);
  expect(r.uncommitted, 'partitions not committed to the log end').toEqual([]);
  expect(r.unexplained, 'duplicate invocations no event explains').toEqual([]);
  expect(r.overlaps, 'two members inside invocations of one partition at once').toEqual([]);
  // A backlog builds while the fault lasts: parallel chunks must then have run side by side, or the
  // scenario proved nothing about them.
  expect(r.widest, 'the most invocations of one partition a member ran at once').toBeLessThanOrEqual(r.parallelizationFactor);
  if (r.parallelizationFactor > 1) expect(r.widest, 'the most invocations of one partition a member ran at once').toBeGreaterThan(1);
}
