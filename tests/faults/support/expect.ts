/** What every fault scenario must show; each figure was printed by runScenario before this. */
import { expect } from 'vitest';
import type { ScenarioResult } from './scenario.ts';

export function expectSurvived(r: ScenarioResult): void {
  expect(r.producerFailed, 'records the producer could not deliver').toBe(0);
  expect(r.lost, 'records in the log no invocation completed').toEqual([]);
  expect(r.uncommitted, 'partitions not committed to the log end').toEqual([]);
  expect(r.unexplained, 'duplicate invocations no event explains').toEqual([]);
  expect(r.overlaps, 'two members inside invocations of one partition at once').toEqual([]);
}
