/**
 * The share RPCs byte for byte against Kafka's own serialization: every hex string below was
 * written by kafka-clients 4.4.0's message classes (`MessageUtil.toByteBufferAccessor(data, version)`
 * on ShareFetchRequestData and the rest: golden/Golden.java prints them), so the encoder and
 * reader here are checked against the broker's definitions, not against themselves.
 */
import { describe, expect, it } from 'vitest';
import { alterGroupConfig, COORDINATOR, describeShareGroupOffsets, findCoordinators, shareGroupDescribe, shareStateKey } from './group-messages.ts';
import { ACK, metadata, shareAcknowledge, shareFetch, shareGroupHeartbeat, type WireRequest } from './messages.ts';

const TOPIC_ID = '0123456789abcdef0fedcba987654321';

/** The body as sent, without the request header's tagged-field byte kafkajs's header v1 lacks. */
async function body(r: WireRequest<unknown>): Promise<string> {
  const { buffer } = await r.request.encode();
  expect(buffer[0]).toBe(0); // request header v2's empty tagged fields
  return buffer.subarray(1).toString('hex');
}

/** A response body as Java writes it, behind response header v1's empty tagged fields. */
const answer = <T>(r: WireRequest<T>, hex: string) => r.response.decode(Buffer.from(`00${hex}`, 'hex'));

describe('share RPC requests, as Kafka 4.4 encodes them', () => {
  it('ShareGroupHeartbeat v1: joining with a subscription, and a later beat with none', async () => {
    expect(await body(shareGroupHeartbeat({ groupId: 'g', memberId: 'm', memberEpoch: 0, topics: ['t'] }))).toBe('0267026d000000000002027400');
    expect(await body(shareGroupHeartbeat({ groupId: 'g', memberId: 'm', memberEpoch: 3, topics: null }))).toBe('0267026d00000003000000');
  });

  it('ShareFetch v1 and v2: acknowledgements (one type for a range, one per offset) and a forgotten partition', async () => {
    const f = {
      groupId: 'g', memberId: 'm', sessionEpoch: 1, maxWaitMs: 500, minBytes: 1, maxBytes: 1024, maxRecords: 10, batchSize: 10,
      topics: [{ topicId: TOPIC_ID, partitions: [{ partition: 2, batches: [{ firstOffset: 5n, lastOffset: 7n, types: [ACK.ACCEPT] }, { firstOffset: 9n, lastOffset: 10n, types: [ACK.GAP, ACK.RELEASE] }] }] }],
      forgotten: [{ topicId: TOPIC_ID, partitions: [4] }],
    };
    const tail = '020123456789abcdef0fedcba987654321020000000203000000000000000500000000000000070201000000000000000009000000000000000a030002000000020123456789abcdef0fedcba98765432102000000040000';
    expect(await body(shareFetch(f, 2))).toBe(`0267026d00000001000001f400000001000004000000000a0000000a0000${tail}`);
    expect(await body(shareFetch(f, 1))).toBe(`0267026d00000001000001f400000001000004000000000a0000000a${tail}`);
  });

  it('ShareAcknowledge v2: a renewal', async () => {
    const a = { groupId: 'g', memberId: 'm', sessionEpoch: 4, renew: true, topics: [{ topicId: TOPIC_ID, partitions: [{ partition: 0, batches: [{ firstOffset: 1n, lastOffset: 3n, types: [ACK.RENEW] }] }] }] };
    expect(await body(shareAcknowledge(a, 2))).toBe('0267026d0000000401020123456789abcdef0fedcba98765432102000000000200000000000000010000000000000003020400000000');
    expect(() => shareAcknowledge(a, 1)).toThrow(/renewing acquisition locks needs ShareAcknowledge v2/);
  });

  it('Metadata v12 by name, and IncrementalAlterConfigs v1 on a group', async () => {
    expect(await body(metadata(['t']))).toBe('0200000000000000000000000000000000027400000000');
    expect(await body(alterGroupConfig('g', { 'share.auto.offset.reset': 'earliest' }))).toBe('02200267021873686172652e6175746f2e6f66667365742e726573657400096561726c6965737400000000');
  });
});

describe('share RPC responses, as Kafka 4.4 writes them', () => {
  it('ShareGroupHeartbeat v1: an assignment, and an error with none', async () => {
    const hb = shareGroupHeartbeat({ groupId: 'g', memberId: 'm', memberEpoch: 0, topics: ['t'] });
    expect(await answer(hb, '00000000000000026d000000020000138801020123456789abcdef0fedcba98765432104000000000000000100000002000000')).toEqual({
      errorCode: 0, errorMessage: null, memberId: 'm', memberEpoch: 2, heartbeatIntervalMs: 5000, assignment: [{ topicId: TOPIC_ID, partitions: [0, 1, 2] }],
    });
    expect(await answer(hb, '0000000000190f756e6b6e6f776e206d656d62657200ffffffff00000000ff00')).toEqual({
      errorCode: 25, errorMessage: 'unknown member', memberId: null, memberEpoch: -1, heartbeatIntervalMs: 0, assignment: null,
    });
  });

  it('ShareFetch v2: records, acquired ranges with their delivery count, the leader and the endpoints', async () => {
    const f = shareFetch({ groupId: 'g', memberId: 'm', sessionEpoch: 0, maxWaitMs: 0, minBytes: 0, maxBytes: 0, maxRecords: 0, batchSize: 0, topics: [], forgotten: [] }, 2);
    const a = await answer(f, '0000000000000000007530020123456789abcdef0fedcba987654321020000000200000000000000000001000000070004010203020000000000000005000000000000000900020000000200000001026800002384000000');
    expect(a).toMatchObject({ errorCode: 0, acquisitionLockTimeoutMs: 30000, nodeEndpoints: [{ nodeId: 1, host: 'h', port: 9092 }] });
    expect(a.topics).toHaveLength(1);
    const [p] = a.topics[0]!.partitions;
    expect(a.topics[0]!.topicId).toBe(TOPIC_ID);
    expect(p).toMatchObject({ partition: 2, errorCode: 0, ackErrorCode: 0, leader: { id: 1, epoch: 7 }, acquired: [{ firstOffset: 5n, lastOffset: 9n, deliveryCount: 2 }] });
    expect([...p!.records!]).toEqual([1, 2, 3]);
  });

  it('ShareAcknowledge v1 and v2 (v2 with the lock timeout): a partition refused with its new leader', async () => {
    const a = { groupId: 'g', memberId: 'm', sessionEpoch: 1, topics: [] };
    const v2 = await answer(shareAcknowledge(a, 2), '0000000000000000003a98020123456789abcdef0fedcba987654321020000000000060b6e6f74206c656164657200000002000000030000000100');
    const v1 = await answer(shareAcknowledge(a, 1), '00000000000000020123456789abcdef0fedcba987654321020000000000060b6e6f74206c656164657200000002000000030000000100');
    const partitions = [{ partition: 0, errorCode: 6, errorMessage: 'not leader', leader: { id: 2, epoch: 3 } }];
    expect(v2).toMatchObject({ errorCode: 0, acquisitionLockTimeoutMs: 15000, topics: [{ topicId: TOPIC_ID, partitions }] });
    expect(v1).toMatchObject({ errorCode: 0, acquisitionLockTimeoutMs: -1, topics: [{ topicId: TOPIC_ID, partitions }] });
  });

  it('Metadata v12: a topic id and its leaders; IncrementalAlterConfigs v1: the refusal', async () => {
    expect(await answer(metadata(['t']), '000000000200000001026800002384000002630000000102000002740123456789abcdef0fedcba98765432100020000000000000000000100000004020000000102000000010100800000000000')).toEqual({
      brokers: [{ nodeId: 1, host: 'h', port: 9092 }], topics: [{ name: 't', topicId: TOPIC_ID, errorCode: 0, partitions: [{ partition: 0, leader: 1, leaderEpoch: 4, errorCode: 0 }] }],
    });
    expect(await answer(alterGroupConfig('g', {}), '00000000020028046261642002670000')).toEqual({ errorCode: 40, errorMessage: 'bad' });
  });

  it('says where a cut-short answer ends instead of reading past it', async () => {
    await expect(answer(metadata(['t']), '0000000002000000')).rejects.toThrow(/the response ends \d+ bytes early/);
  });
});

describe('a share group\'s coordinators and offsets, as Kafka 4.4 encodes them', () => {
  it('FindCoordinator v6 for a share partition\'s state: the key names the topic id as Kafka prints a Uuid', async () => {
    const key = shareStateKey('g', TOPIC_ID, 0);
    expect(key).toBe('g:ASNFZ4mrze8P7cuph2VDIQ:0');
    expect(await body(findCoordinators(COORDINATOR.SHARE, [key]))).toBe('02021b673a41534e465a346d727a653850376375706832564449513a3000');
    const r = findCoordinators(COORDINATOR.SHARE, [key]);
    expect(await answer(r, '00000000021b673a41534e465a346d727a653850376375706832564449513a30000000020268000023840000000000')).toEqual([{ key, nodeId: 2, errorCode: 0, errorMessage: null }]);
  });

  it('DescribeShareGroupOffsets v1: every topic asked, the trigger\'s kept, a partition with no state yet as -1', async () => {
    const r = describeShareGroupOffsets('g', 't');
    expect(await body(r)).toBe('020267000000');
    const hex = '000000000202670302740123456789abcdef0fedcba987654321030000000000000000000000280000000300000000000000070000000000000001ffffffffffffffff00000003ffffffffffffffff0000000000066f746865720123456789abcdef0fedcba98765432101000000000000';
    expect(await answer(r, hex)).toEqual({
      errorCode: 0, errorMessage: null,
      partitions: [{ partition: 0, startOffset: 40, lag: 7, errorCode: 0, errorMessage: null }, { partition: 1, startOffset: -1, lag: -1, errorCode: 0, errorMessage: null }],
    });
  });

  it('ShareGroupDescribe v1: the state, the assignor and each member\'s partitions by topic name', async () => {
    const r = shareGroupDescribe('g');
    expect(await body(r)).toBe('0202670000');
    const hex = '0000000002000000026707537461626c6500000003000000030773696d706c6502036d31000000000302630b2f3132372e302e302e31020274020123456789abcdef0fedcba9876543210274030000000000000002000000800000000000';
    expect(await answer(r, hex)).toEqual({ errorCode: 0, errorMessage: null, state: 'Stable', assignor: 'simple', members: [{ memberId: 'm1', clientId: 'c', clientHost: '/127.0.0.1', assignment: { t: [0, 2] } }] });
  });
});
