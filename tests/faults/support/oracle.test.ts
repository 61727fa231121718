import { describe, expect, it } from 'vitest';
import { analyse, CAUSES, type Invocation, type PollerEvent } from './oracle.ts';

const inv = (id: string, member: string, start: number, end: number | undefined, records: Array<[number, number]>): Invocation => ({
  id, member, start, ...(end !== undefined ? { end } : {}), records: records.map(([p, o]) => [p, o, `seq-${p}-${o}`]),
});

describe('the fault oracle', () => {
  it('counts every log position not in an invocation that ended as lost', () => {
    const f = analyse({ logEnd: new Map([[0, 3], [1, 1]]), invocations: [inv('a', 'm1', 0, 10, [[0, 0], [0, 1]]), inv('b', 'm1', 5, undefined, [[1, 0]])], events: [] });
    expect(f.produced).toBe(4);
    expect(f.processed).toBe(2);
    expect(f.lost).toEqual(['0:2', '1:0']);
  });

  it('explains a re-invocation by the refused commit, the unowned partition or the stopped consumer, and flags the rest', () => {
    const invocations = [
      inv('a', 'm1', 0, 10, [[0, 0]]), inv('b', 'm2', 20, 30, [[0, 0]]), // commit refused
      inv('c', 'm1', 0, 10, [[1, 0]]), inv('d', 'm2', 20, 30, [[1, 0]]), // not owned
      inv('e', 'm1', 0, 10, [[2, 0]]), inv('f', 'm1', 20, 30, [[2, 0]]), // consumer stopped
      inv('g', 'm1', 0, 10, [[3, 0]]), inv('h', 'm2', 20, 30, [[3, 0]]), // committed, yet again
      inv('i', 'm1', 0, 10, [[4, 0]]), inv('j', 'm2', 20, 30, [[4, 0]]), // nothing seen
    ];
    const events: PollerEvent[] = [
      { member: 'm1', at: 11, name: 'poller.commit_refused', partition: 0, offset: 1, reason: 'refused' },
      { member: 'm1', at: 11, name: 'poller.commit_refused', partition: 1, offset: 1, reason: 'not-owned' },
      { member: 'm1', at: 12, name: 'poller.commit', partition: 3, offset: 1 },
      { member: 'm1', at: 15, name: 'group.crash' },
    ];
    const f = analyse({ logEnd: new Map([[0, 1], [1, 1], [2, 1], [3, 1], [4, 1]]), invocations, events: events.slice(0, 3) });
    expect(f.duplicates).toBe(5);
    expect(f.causes).toEqual({ [CAUSES.refused]: 1, [CAUSES.notOwned]: 1 });
    expect(f.unexplained).toHaveLength(3);
    expect(f.unexplained[0]).toMatch(/^2:0 unexplained: m1 ended it/);
    expect(f.unexplained[1]).toMatch(/^3:0 unexplained: m1 committed past it/);

    const withCrash = analyse({ logEnd: new Map([[2, 1]]), invocations: invocations.slice(4, 6), events });
    expect(withCrash.causes).toEqual({ [CAUSES.stopped]: 1 });

    // The member rejoined while the chunk ran, and committed after the rejoin: fetched again by itself.
    const rejoined = [inv('k', 'm1', 0, 10, [[5, 0]]), inv('l', 'm1', 20, 30, [[5, 0]])];
    const late = (joinAt: number): PollerEvent[] => [{ member: 'm1', at: joinAt, name: 'group.join' }, { member: 'm1', at: 12, name: 'poller.commit', partition: 5, offset: 1 }];
    expect(analyse({ logEnd: new Map([[5, 1]]), invocations: rejoined, events: late(8) }).causes).toEqual({ [CAUSES.rejoined]: 1 });
    expect(analyse({ logEnd: new Map([[5, 1]]), invocations: rejoined, events: late(15) }).unexplained).toHaveLength(1); // committed before it rejoined
    // A second join after the commit read it: a run after that has no such excuse (a review found the excuse unbounded).
    const joinedAgain: PollerEvent[] = [...late(8), { member: 'm1', at: 15, name: 'group.join' }];
    expect(analyse({ logEnd: new Map([[5, 1]]), invocations: rejoined, events: joinedAgain }).unexplained).toHaveLength(1);
  });

  it('explains a re-invocation by a refusal reported after the next member began (a commit held by a paused coordinator), but not when a commit came first', () => {
    const invocations = [inv('a', 'm1', 0, 10, [[0, 0]]), inv('b', 'm2', 20, 30, [[0, 0]])];
    const lateRefusal: PollerEvent[] = [{ member: 'm1', at: 21, name: 'poller.commit_refused', partition: 0, offset: 1, reason: 'refused' }];
    expect(analyse({ logEnd: new Map([[0, 1]]), invocations, events: lateRefusal }).causes).toEqual({ [CAUSES.refused]: 1 });
    const committedFirst: PollerEvent[] = [{ member: 'm1', at: 21, name: 'poller.commit', partition: 0, offset: 1 }, ...lateRefusal.map((e) => ({ ...e, at: 22 }))];
    expect(analyse({ logEnd: new Map([[0, 1]]), invocations, events: committedFirst }).unexplained).toHaveLength(1);
  });

  it('reads a parallel commit\'s done ranges as covering their records, and nothing between them', () => {
    // m1 committed offset 2 with 5..6 done beyond it; m2 then ran 5 (committed as done) and 3 (not).
    const invocations = [inv('a', 'm1', 0, 10, [[0, 5]]), inv('b', 'm1', 0, 10, [[0, 3]]), inv('c', 'm2', 20, 30, [[0, 5]]), inv('d', 'm2', 20, 30, [[0, 3]])];
    const committed: PollerEvent[] = [{ member: 'm1', at: 11, name: 'poller.commit', partition: 0, offset: 2, done: [{ from: 5, until: 6 }] }];
    const f = analyse({ logEnd: new Map([[0, 0]]), invocations, events: committed });
    expect(f.unexplained).toHaveLength(2);
    expect(f.unexplained[0]).toMatch(/^0:5 unexplained: m1 committed past it/);
    expect(f.unexplained[1]).toMatch(/^0:3 unexplained: m1 ended it/);
    // The same commit refused: 5's second run has its cause, 3's still has none.
    const refused = analyse({ logEnd: new Map([[0, 0]]), invocations, events: [{ ...committed[0]!, name: 'poller.commit_refused', reason: 'refused' }] });
    expect(refused.causes).toEqual({ [CAUSES.refused]: 1 });
    expect(refused.unexplained).toHaveLength(1);
  });

  it('finds two members inside invocations of one partition at once, and not one member twice or two partitions', () => {
    const f = analyse({
      logEnd: new Map(),
      invocations: [inv('a', 'm1', 0, 100, [[0, 0]]), inv('b', 'm2', 50, 60, [[0, 5]]), inv('c', 'm1', 10, 20, [[0, 1]]), inv('d', 'm2', 0, 100, [[1, 0]])],
      events: [],
    });
    expect(f.overlaps).toEqual([{ partition: 0, a: { member: 'm1', start: 0, end: 100 }, b: { member: 'm2', start: 50, end: 60 } }]);
  });

  it('counts the most invocations one member had in flight on one partition, back to back not side by side', () => {
    const f = analyse({
      logEnd: new Map(),
      invocations: [inv('a', 'm1', 0, 10, [[0, 0]]), inv('b', 'm1', 10, 20, [[0, 1]]), inv('c', 'm1', 12, 30, [[0, 2]]), inv('d', 'm1', 15, undefined, [[0, 3]]), inv('e', 'm2', 15, 16, [[0, 4]]), inv('f', 'm1', 15, 16, [[1, 0]])],
      events: [],
    });
    expect(f.widest).toBe(3);
  });

  it('measures the longest stall of a partition after the fault began', () => {
    const f = analyse({ logEnd: new Map(), invocations: [0, 100, 200, 1_900, 2_000].map((t, i) => inv(String(i), 'm1', t, t + 10, [[0, i]])), events: [], from: 150 });
    expect(f.longestStallMs).toBe(1_700);
  });
});
