/**
 * Review (issue 43): timelines the queue oracle gets wrong. Each test fails on d3074b9; each says
 * what the oracle should have reported and what it explained away instead.
 */
import { describe, expect, it } from 'vitest';
import type { Invocation } from './oracle.ts';
import { analyseQueue, QUEUE_CAUSES, type Acquisition, type AckResult } from './queue-oracle.ts';

const inv = (id: string, member: string, start: number, end: number | undefined, records: Array<[number, number, number]>): Invocation => ({
  id, member, start, ...(end !== undefined ? { end } : {}), records: records.map(([p, o, count]) => [p, o, `v${o}`, count]),
});
const accept = (member: string, at: number, partition: number, from: number, until: number, outcome: AckResult['outcome'] = 'applied', error?: string): AckResult => ({
  member, at, partition, ranges: [{ from, until, type: 'accept' }], outcome, ...(error !== undefined ? { error } : {}),
});
const acquired = (member: string, at: number, leader: number, from: number, until: number): Acquisition => ({ member, at, partition: 0, leader, from, until });

describe('Review (issue 43): the queue oracle', () => {
  it('does not explain a redelivery by a kill of the first member that came long after the redelivery', () => {
    // m1 ran 0:0 and heard nothing back about its acceptance (the member dropped it: see framework/kafka/share/review-43.test.ts);
    // the broker handed the record to m2 at 20 (m1's lock ran out). m1 was killed -9 only at 100,000, long after.
    const f = analyseQueue({
      logEnd: new Map([[0, 1]]),
      invocations: [inv('a', 'm1', 0, 10, [[0, 0, 1]]), inv('b', 'm2', 20, 30, [[0, 0, 2]])],
      acks: [accept('m2', 31, 0, 0, 0)],
      kills: [{ member: 'm1', at: 100_000 }],
      acquisitions: [],
    });
    expect(f.causes, 'the kill came 99,980 ms after the redelivery: it cannot have caused it').toEqual({});
    expect(f.unexplained).toHaveLength(1);
  });
});

describe('Review (issue 43): the queue oracle, an outcome of another delivery', () => {
  it('does not explain a redelivery by the outcome of a later delivery of the same record to the same member', () => {
    // Delivery 1 (m1): its acceptance never reported. Delivery 2 (m2): released, applied.
    // Delivery 3 (m1 again): its acceptance refused at 51. Delivery 4 (m2): accepted, applied.
    const f = analyseQueue({
      logEnd: new Map([[0, 1]]),
      invocations: [inv('a', 'm1', 0, 10, [[0, 0, 1]]), inv('b', 'm2', 20, 30, [[0, 0, 2]]), inv('c', 'm1', 40, 50, [[0, 0, 3]]), inv('d', 'm2', 60, 70, [[0, 0, 4]])],
      acks: [
        { member: 'm2', at: 31, partition: 0, ranges: [{ from: 0, until: 0, type: 'release' }], outcome: 'applied' },
        accept('m1', 51, 0, 0, 0, 'refused', '76 INVALID_RECORD_STATE'),
        accept('m2', 71, 0, 0, 0),
      ],
      kills: [],
      acquisitions: [],
    });
    // 2 -> 3 released and 3 -> 4 refused are explained; 1 -> 2 has nothing: m1's refusal at 51 was of delivery 3.
    expect(f.unexplained, JSON.stringify(f.causes)).toHaveLength(1);
    expect(f.causes).toEqual({ [QUEUE_CAUSES.released]: 1, [QUEUE_CAUSES.refused]: 1 });
  });
});
