import { describe, expect, it } from 'vitest';
import type { Invocation } from './oracle.ts';
import { analyseQueue, QUEUE_CAUSES, type AckResult } from './queue-oracle.ts';

const inv = (id: string, member: string, start: number, end: number | undefined, records: Array<[number, number, number]>): Invocation => ({
  id, member, start, ...(end !== undefined ? { end } : {}), records: records.map(([p, o, count]) => [p, o, `v${o}`, count]),
});
const accept = (member: string, at: number, partition: number, from: number, until: number, outcome: AckResult['outcome'] = 'applied', error?: string): AckResult => ({
  member, at, partition, ranges: [{ from, until, type: 'accept' }], outcome, ...(error !== undefined ? { error } : {}),
});
const logEnd = new Map([[0, 4]]);

describe('the queue oracle', () => {
  it('finds nothing wrong when every record was invoked once and its acceptance applied', () => {
    const f = analyseQueue({ logEnd, invocations: [inv('a', 'm1', 0, 10, [[0, 0, 1], [0, 1, 1]]), inv('b', 'm2', 5, 15, [[0, 2, 1], [0, 3, 1]])], acks: [accept('m1', 11, 0, 0, 1), accept('m2', 16, 0, 2, 3)], kills: [], acquisitions: [] });
    expect(f).toMatchObject({ produced: 4, processed: 4, lost: [], unsettled: [], duplicates: 0, unexplained: [], deliveredAfterAcceptance: [] });
  });

  it('counts a record no invocation ended on as lost, and one whose acceptance was never applied as unsettled', () => {
    const f = analyseQueue({ logEnd, invocations: [inv('a', 'm1', 0, 10, [[0, 0, 1], [0, 1, 1], [0, 2, 1]])], acks: [accept('m1', 11, 0, 0, 1)], kills: [], acquisitions: [] });
    expect(f.lost).toEqual(['0:3']);
    expect(f.unsettled).toEqual(['0:2', '0:3']);
  });

  it('explains a redelivery by a refused or unsent acknowledgement, a release, or a kill before the acceptance was applied', () => {
    const f = analyseQueue({
      logEnd,
      invocations: [
        inv('a', 'm1', 0, 10, [[0, 0, 1]]), inv('b', 'm2', 20, 30, [[0, 0, 2]]), // refused
        inv('c', 'm1', 0, 10, [[0, 1, 1]]), inv('d', 'm2', 20, 30, [[0, 1, 2]]), // not sent
        inv('e', 'm1', 0, 10, [[0, 2, 1]]), inv('f', 'm2', 20, 30, [[0, 2, 2]]), // released
        inv('g', 'killed', 0, undefined, [[0, 3, 1]]), inv('h', 'm2', 20, 30, [[0, 3, 2]]), // killed
      ],
      acks: [
        accept('m1', 25, 0, 0, 0, 'refused', '76 INVALID_RECORD_STATE'), // reported after the redelivery began: it still explains it
        accept('m1', 11, 0, 1, 1, 'unsent', 'the share session was lost before the member closed'),
        { member: 'm1', at: 11, partition: 0, ranges: [{ from: 2, until: 2, type: 'release' }], outcome: 'applied' },
        accept('m2', 31, 0, 0, 3),
      ],
      kills: [{ member: 'killed', at: 15 }], acquisitions: [],
    });
    expect(f.unexplained).toEqual([]);
    expect(f.causes).toEqual({ [QUEUE_CAUSES.refused]: 1, [QUEUE_CAUSES.notSent]: 1, [QUEUE_CAUSES.released]: 1, [QUEUE_CAUSES.killed]: 1 });
    expect(f.duplicates).toBe(4);
  });

  it('explains a redelivery by another leader when the one that handed it out lost the partition, and only then', () => {
    const acquired = (member: string, at: number, leader: number) => ({ member, at, partition: 0, leader, ranges: [{ from: 0, until: 3 }] });
    const f = analyseQueue({
      logEnd: new Map([[0, 2]]),
      invocations: [inv('a', 'm1', 10, 20, [[0, 0, 1]]), inv('b', 'm1', 15, 25, [[0, 0, 2]]), inv('c', 'm1', 16, 20, [[0, 1, 1]]), inv('d', 'm1', 40, 50, [[0, 1, 2]])],
      acks: [accept('m1', 26, 0, 0, 0)],
      kills: [],
      acquisitions: [acquired('m1', 9, 1), acquired('m1', 14, 2), acquired('m1', 39, 2)],
    });
    expect(f.causes).toEqual({ [QUEUE_CAUSES.leaderChanged]: 1 }); // 0:0: node 1, then node 2
    expect(f.unexplained).toHaveLength(1); // 0:1: node 2 both times
  });

  it('counts a record whose acceptance may have been applied unheard (killed after it ended, or in flight when a request failed) as unknown, not unsettled', () => {
    const f = analyseQueue({
      logEnd: new Map([[0, 4]]),
      invocations: [inv('a', 'killed', 0, 10, [[0, 0, 1]]), inv('b', 'killed', 12, undefined, [[0, 1, 1]]), inv('c', 'm1', 0, 10, [[0, 2, 1], [0, 3, 1]]), inv('d', 'm2', 40, 50, [[0, 3, 2]])],
      acks: [accept('m1', 11, 0, 2, 3, 'unknown', 'connection closed'), accept('m1', 30, 0, 2, 3, 'refused', '76'), accept('m2', 51, 0, 3, 3)],
      kills: [{ member: 'killed', at: 15 }], acquisitions: [],
    });
    expect(f.outcomeUnknown).toBe(2); // 0:0 (the kill) and 0:2 (in flight)
    expect(f.unsettled).toEqual(['0:1']); // never ended: owed to another member
    expect(f.lost).toEqual(['0:1']);
    expect(f.causes).toEqual({ [QUEUE_CAUSES.unknown]: 1 }); // 0:3 came back: the unknown acceptance was not applied
  });

  it('reports a record delivered again after its acceptance was applied, even to a member killed later, and a redelivery nothing explains', () => {
    const f = analyseQueue({
      logEnd,
      invocations: [
        inv('a', 'killed', 0, 10, [[0, 0, 1]]), inv('b', 'm2', 20, 30, [[0, 0, 1]]), // applied at 11, then again: the count not raised either
        inv('c', 'm1', 0, 10, [[0, 1, 1]]), inv('d', 'm2', 20, 30, [[0, 1, 2]]), // m1 heard nothing back, and was not killed
      ],
      acks: [accept('killed', 11, 0, 0, 0)],
      kills: [{ member: 'killed', at: 15 }], acquisitions: [],
    });
    expect(f.deliveredAfterAcceptance).toHaveLength(1);
    expect(f.deliveredAfterAcceptance[0]).toMatch(/^0:0: accepted at 11, delivered again to m2 at 20/);
    expect(f.unexplained).toHaveLength(1);
    expect(f.unexplained[0]).toMatch(/^0:1: m1 had it/);
    expect(f.countNotRaised).toBe(1);
  });
});
