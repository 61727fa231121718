import { describe, expect, it } from 'vitest';
import type { GroupMembers } from '../kafka/admin-port.ts';
import { encodeMetadata } from '../parallel/commit-metadata.ts';
import { formatLag, partitionLag, triggerLag, withDoneBeyond } from './lag-report.ts';

const p = (partition: number, committed: number, logEnd: number, logStart = 0) => ({ partition, committed, logStart, logEnd });
const group: GroupMembers = {
  state: 'Stable',
  protocolType: 'consumer',
  protocol: 'RoundRobinAssigner',
  members: [{ memberId: 'sluice-orders-1', clientId: 'sluice-orders', clientHost: '/127.0.0.1', assignment: { orders: [2, 0, 1] } }],
};
const base = { functionName: 'orders', topic: 'orders', groupId: 'orders-processor', brokers: ['127.0.0.1:29092'], group };

describe('withDoneBeyond', () => {
  it("reads the records a commit's metadata marks done beyond its offset, and leaves a commit without metadata as it is", () => {
    const metadata = encodeMetadata(30, [{ from: 40, until: 49 }, { from: 60, until: 60 }])!;
    expect(withDoneBeyond({ ...p(0, 30, 200), metadata })).toEqual({ ...p(0, 30, 200), doneBeyond: { records: 11, metadataBytes: metadata.length } });
    expect(withDoneBeyond(p(1, 5, 5))).toEqual(p(1, 5, 5));
    expect(withDoneBeyond({ ...p(2, 5, 9), metadata: 'a note of the application' })).toEqual(p(2, 5, 9));
  });
});

describe('partitionLag', () => {
  it('is log-end minus the committed offset', () => {
    expect(partitionLag(p(0, 4, 10), 'TRIM_HORIZON')).toBe(6);
    expect(partitionLag(p(0, 10, 10), 'LATEST')).toBe(0);
    expect(partitionLag(p(0, 0, 5), 'LATEST')).toBe(5); // committed 0 is an offset, not "none"
  });

  it('is never negative (a log truncated below the commit)', () => {
    expect(partitionLag(p(0, 12, 10), 'TRIM_HORIZON')).toBe(0);
  });

  it('without a commit, is what the starting position would read', () => {
    expect(partitionLag(p(0, -1, 10, 3), 'TRIM_HORIZON')).toBe(7);
    expect(partitionLag(p(0, -1, 10, 3), 'LATEST')).toBe(0);
    expect(partitionLag(p(0, -1, 10, 3), 'AT_TIMESTAMP')).toBeNull();
  });
});

describe('triggerLag', () => {
  it('adds the lag per partition and the known total', () => {
    const r = triggerLag({ ...base, startingPosition: 'AT_TIMESTAMP' }, [p(0, 4, 10), p(1, -1, 3), p(2, 0, 5)]);
    expect(r.partitions.map((x) => x.lag)).toEqual([6, null, 5]);
    expect(r.totalLag).toBe(11);
  });
});

describe('records done beyond the committed offset (parallelizationFactor > 1)', () => {
  it('are not lag, and show as two columns when any partition has them', () => {
    const r = triggerLag({ ...base, startingPosition: 'TRIM_HORIZON' }, [{ ...p(0, 30, 200), doneBeyond: { records: 161, metadataBytes: 38 } }, p(1, 5, 5)]);
    expect(r.partitions.map((x) => x.lag)).toEqual([9, 0]);
    const text = formatLag([r]);
    expect(text).toContain('partition  committed  log-end  lag  done-beyond  metadata');
    expect(text).toContain('          0         30      200    9          161      38 B');
    expect(text).toContain('          1          5        5    0            0         -');
    expect(formatLag([triggerLag({ ...base, startingPosition: 'TRIM_HORIZON' }, [p(0, 5, 5)])])).not.toContain('done-beyond');
  });
});

describe('formatLag', () => {
  it('prints the group, its members with their partitions, and a table per partition', () => {
    const text = formatLag([triggerLag({ ...base, startingPosition: 'TRIM_HORIZON' }, [p(0, 4, 10), p(1, -1, 3), p(2, 120, 1200)])]);
    expect(text).toBe(
      [
        'orders: topic orders, group orders-processor (Stable, 1 member) on 127.0.0.1:29092',
        '  member sluice-orders-1 (client sluice-orders, host /127.0.0.1): partitions 0,1,2',
        '  partition  committed  log-end   lag',
        '          0          4       10     6',
        '          1          -        3     3',
        '          2        120     1200  1080',
        '  total lag 1089',
        '  - no committed offset: the group starts at TRIM_HORIZON',
      ].join('\n'),
    );
  });

  it('says when a member holds no partition of the topic and marks unknown lag', () => {
    const idle = { ...group, members: [{ ...group.members[0]!, assignment: {} }] };
    const text = formatLag([triggerLag({ ...base, group: idle, startingPosition: 'AT_TIMESTAMP' }, [p(0, -1, 3)])]);
    expect(text).toContain('partitions none');
    expect(text).toContain('\n          0          -        3    ?\n');
    expect(text).toContain('(lag ? until it commits)');
  });
});
