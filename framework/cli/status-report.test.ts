import { describe, expect, it } from 'vitest';
import { formatStatus, type TriggerStatus } from './status-report.ts';
import { watchSeconds } from './status-run.ts';
import { inFlightFromMetrics } from './poller-metrics.ts';

const report = (over: Partial<TriggerStatus['coordinator']> = {}): TriggerStatus => ({
  functionName: 'orders', topic: 'orders', groupId: 'g', brokers: ['b1:9092'], startingPosition: 'TRIM_HORIZON',
  group: {
    state: 'Stable', protocolType: 'consumer', protocol: 'RoundRobinAssigner',
    members: [
      { memberId: 'm-1', clientId: 'sluice-a', clientHost: '/10.0.0.1', assignment: { orders: [2, 0] } },
      { memberId: 'm-2', clientId: 'sluice-b', clientHost: '/10.0.0.2', assignment: { orders: [1] } },
    ],
  },
  partitions: [
    { partition: 0, committed: 5, logStart: 0, logEnd: 9, lag: 4 },
    { partition: 1, committed: -1, logStart: 0, logEnd: 3, lag: 3 },
    { partition: 2, committed: 7, logStart: 0, logEnd: 7, lag: 0 },
  ],
  totalLag: 7,
  coordinator: { nodeId: 2, address: 'b2:9092', offsetsPartition: 31, offsetsPartitions: 50, offsetsPartitionLeader: 2, ...over },
});

describe('formatStatus with parallelizationFactor > 1', () => {
  it('shows the records done beyond each commit and the invocations in flight the poller reported', () => {
    const r = report();
    r.partitions[0]!.doneBeyond = { records: 2, metadataBytes: 18 };
    const text = formatStatus([{ ...r, inFlight: { 0: 7, 1: 0, 2: 3 } }]);
    expect(text).toContain('  partition  committed  log-end  lag  done-beyond  metadata  in-flight  owner');
    expect(text).toContain('          0          5        9    4            2      18 B          7     #1');
  });

  it('says why in-flight invocations are missing when no poller answered', () => {
    const text = formatStatus([{ ...report(), inFlight: { unreachable: 'no poller answered at http://127.0.0.1:9464/metrics (fetch failed)' } }]);
    expect(text).not.toContain('in-flight  owner');
    expect(text).toContain('  - invocations in flight not shown: no poller answered at http://127.0.0.1:9464/metrics (fetch failed)');
  });
});

describe('formatStatus for a queue trigger (a share group)', () => {
  it('says share group, names the members of each partition, the start offsets and where a partition with no state begins', () => {
    const r = report();
    r.group = {
      state: 'Stable', protocolType: 'share', type: 'share', protocol: 'simple',
      members: [
        { memberId: 'm-1', clientId: 'sluice-a', clientHost: '/10.0.0.1', assignment: { orders: [0, 1, 2] } },
        { memberId: 'm-2', clientId: 'sluice-b', clientHost: '/10.0.0.2', assignment: { orders: [0, 2] } },
      ],
    };
    const text = formatStatus([r]);
    expect(text).toContain('orders: topic orders, share group g on b1:9092');
    expect(text).toContain('  state Stable, type share (KIP-932, queue mode: every member takes records of every partition it is assigned), assignor simple');
    expect(text).toContain('  partition  start  log-end  lag  members');
    expect(text).toContain('          0      5        9    4    #1,#2');
    expect(text).toContain('          1      -        3    3       #1');
    expect(text).toContain('  - no share state yet: the share group starts at the log start (startingPosition TRIM_HORIZON)');
  });
});

describe('inFlightFromMetrics', () => {
  it('reads sluice_partition_chunks_in_flight by function, topic and partition', () => {
    const text = [
      '# HELP sluice_partition_chunks_in_flight Invocations of the partition running now.',
      'sluice_partition_chunks_in_flight{function="orders",topic="orders",partition="0",group="g"} 7',
      'sluice_partition_chunks_in_flight{function="orders",topic="orders",partition="2",group="g"} 3',
      'sluice_offset_lag{function="orders",topic="orders",partition="0",group="g"} 4',
    ].join('\n');
    expect(inFlightFromMetrics(text)).toEqual(new Map([['orders|orders|0', 7], ['orders|orders|2', 3]]));
  });
});

describe('formatStatus', () => {
  it('prints state, assignor, coordinator, members and each partition with its owner', () => {
    expect(formatStatus([report()])).toBe([
      'orders: topic orders, group g on b1:9092',
      '  state Stable, type classic (protocol type consumer), assignor RoundRobinAssigner',
      '  coordinator broker 2 at b2:9092, leader of __consumer_offsets-31 (of 50)',
      '  members 2:',
      '    #1 m-1  client sluice-a  host /10.0.0.1  partitions 0,2',
      '    #2 m-2  client sluice-b  host /10.0.0.2  partitions 1',
      '  partition  committed  log-end  lag  owner',
      '          0          5        9    4     #1',
      '          1          -        3    3     #2',
      '          2          7        7    0     #1',
      '  total lag 7',
    ].join('\n'));
  });

  it('names the group type as Kafka does: consumer for a KIP-848 group (librdkafka), classic otherwise', () => {
    const kip848 = report();
    kip848.group = { ...kip848.group, type: 'consumer', protocol: 'uniform' };
    expect(formatStatus([kip848])).toContain('  state Stable, type consumer (KIP-848), assignor uniform\n');
    const empty = report();
    empty.group = { ...empty.group, protocolType: '', protocol: '', members: [] };
    expect(formatStatus([empty])).toContain('  state Stable, no protocol (no member)\n');
  });

  it('says when the offsets partition is led by another broker than FindCoordinator named (leadership moving)', () => {
    expect(formatStatus([report({ offsetsPartitionLeader: -1 })])).toContain("(of 50) (the partition's leader is none: leadership is moving)");
    expect(formatStatus([report({ offsetsPartitionLeader: 3 })], new Date(0))).toMatch(/^sluice status at 1970-01-01T00:00:00.000Z\n\n.*\n[\s\S]*leader is broker 3/);
  });
});

describe('watchSeconds', () => {
  it('reads once without --watch, every 2 s with it, --interval when given', () => {
    expect(watchSeconds(undefined, undefined)).toBeUndefined();
    expect(watchSeconds(true, undefined)).toBe(2);
    expect(watchSeconds(true, '10')).toBe(10);
    expect(() => watchSeconds(true, '0.5')).toThrow(/--interval takes the seconds between refreshes of --watch, a whole number 1–3600 \(default 2\); got "0.5"/);
  });
});

describe('formatStatus of members that chose hostile ids', () => {
  it('escapes the terminal controls of member, instance and client ids and hosts', () => {
    const r = report();
    r.group.members[0] = { memberId: 'm\x1b[2K', groupInstanceId: 'i\r', clientId: 'c\x1b]52;c;eA==\x07', clientHost: '/h\u202e', assignment: { orders: [0] } };
    const text = formatStatus([r]);
    expect(text).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202a-\u202e]/);
    expect(text).toContain('    #1 m\\x1b[2K  instance i\\r  client c\\x1b]52;c;eA==\\x07  host /h\\u202e  partitions 0');
  });
});
