/**
 * Review (2bb3571): a run of MAX_FAILED_BEATS heartbeats refused with a code the member does not
 * know now ends the member through crash(). crash() closes the leader sessions but leaves them in
 * the map, so what the runner acknowledges afterwards (the records it held go on being worked on,
 * and queue-member's stop drains them) goes into a session whose loop has ended: never sent, and
 * never given an outcome (queue.ack_result). Before the commit the member went on, and those
 * acknowledgements were applied.
 *
 * And beat() does not look at `stopping` after its answer: the fifth refusal answered after stop()
 * began (a deploy's SIGTERM while the member is refused) crashes a member that is draining, closing
 * its sessions under the drain: the acknowledgements made during the drain are never sent.
 * (Both pass on 2bb3571^.)
 *
 * And the first heartbeat's refusal with an unknown code is not the start's: start() resolves, and the
 * new counter crashes the member 2 s later. Kafka 4.4.0's coordinator answers a share heartbeat for a
 * group id held by a consumer group with GROUP_ID_NOT_FOUND (69, "Group g is not a share group.",
 * GroupMetadataManager.getOrMaybeCreateShareGroup), never INCONSISTENT_GROUP_PROTOCOL (23, the FATAL
 * entry meant for it). This one also fails on 2bb3571^ (the member then went on refused for ever).
 */
import { describe, expect, it, vi } from 'vitest';
import { fetched, logger, part, recorder, scripted, sentAcks, tick, TOPIC_ID } from '../../../tests/support/scripted-share-broker.ts';
import { ACK } from './messages.ts';
import { ShareMember } from './share-member.ts';

vi.mock('./messages.ts', async (original) => {
  const m = await original<typeof import('./messages.ts')>();
  const tag = <A extends unknown[], R extends object>(kind: string, f: (...a: A) => R) => (...a: A) => Object.assign(f(...a), { kind, input: a[0] });
  return { ...m, shareFetch: tag('fetch', m.shareFetch), shareAcknowledge: tag('ack', m.shareAcknowledge), shareGroupHeartbeat: tag('hb', m.shareGroupHeartbeat), metadata: tag('md', m.metadata) };
});

const joined = { errorCode: 0, errorMessage: null, memberId: 'm-1', memberEpoch: 1, heartbeatIntervalMs: 100, assignment: [{ topicId: TOPIC_ID, partitions: [0] }] };
const refused = { errorCode: 42, errorMessage: 'This most likely occurs because of a request being malformed.', memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null };
const md = { brokers: [], topics: [{ name: 't', topicId: TOPIC_ID, errorCode: 0, partitions: [{ partition: 0, leader: 1, leaderEpoch: 0, errorCode: 0 }] }] };

/** A member that joins, is assigned partition 0, acquires records 0-2, and whose heartbeats after the first are refused (42); `slowBeat` delays one heartbeat's answer. */
function setUp(o: { slowBeat?: number; onBeat?: (n: number) => void } = {}) {
  let beats = 0;
  let fetches = 0;
  const crashes: string[] = [];
  const r = recorder();
  const t = scripted(async (req) => {
    if (req.kind === 'md') return md;
    if (req.kind === 'hb') {
      if (req.input.memberEpoch === -1) return { ...refused, errorCode: 0 };
      const n = ++beats;
      o.onBeat?.(n);
      if (n === o.slowBeat) await tick(300);
      return n === 1 ? joined : refused;
    }
    if (req.kind === 'fetch') return ++fetches === 1 ? fetched([part(0, { acquired: [[0, 2, 1]] })]) : fetched([part(0)]);
    return { errorCode: 0, errorMessage: null, acquisitionLockTimeoutMs: 30_000, topics: [{ topicId: TOPIC_ID, partitions: [{ partition: 0, errorCode: 0, errorMessage: null }] }], nodeEndpoints: [] };
  });
  const held: number[] = [];
  const m = new ShareMember({
    groupId: 'g', topic: 't', transport: t, logger, maxInFlight: 3, fetch: { maxWaitMs: 0, maxBytes: 1 << 20, maxRecords: 10 },
    onBatch: (b) => void held.push(...b.records.map((x) => x.offset)), onCrash: (e) => void crashes.push(e.message), onAcknowledged: r.acknowledged,
  });
  return { m, t, r, crashes, held };
}

describe('Review (2bb3571): a member ended by a run of refused heartbeats while it holds records', () => {
  it('gives the records acknowledged afterwards an outcome, instead of dropping them in a closed session', async () => {
    const { m, r, crashes, held } = setUp();
    await m.start();
    await tick(3_000); // records 0-2 in hand; beats 2-6 refused, the sixth ends the member
    expect(held).toEqual([0, 1, 2]);
    // The runner finishes the records it held, and the supervisor's restart stops the old member (queue-member.stop drains them).
    m.acknowledge(0, [0, 1, 2], ACK.ACCEPT);
    await m.stop(Date.now() + 1_000);
    expect(crashes.length).toBeLessThanOrEqual(1);
    expect([...r.told(0)].sort(), `outcomes: ${JSON.stringify(r.outcomes)}; crashes: ${JSON.stringify(crashes)}`).toEqual([0, 1, 2]);
  });
});

describe('Review (2bb3571): the fifth refused heartbeat answered after stop() began', () => {
  it('does not crash the stopping member: no onCrash, and the acknowledgements made during the drain are sent', async () => {
    let stopping: Promise<void> | undefined;
    const box: { m?: ShareMember } = {};
    // Heartbeats 2-5 refused; the sixth (the fifth refusal) is in flight when the poller is told to stop.
    const s = setUp({ slowBeat: 6, onBeat: (n) => void (n === 6 && setTimeout(() => (stopping = box.m!.stop(Date.now() + 5_000)), 0)) });
    box.m = s.m;
    await s.m.start();
    while (!stopping) await tick(50);
    expect(s.held).toEqual([0, 1, 2]);
    await tick(500); // the refusal has been answered; the drain goes on
    s.m.acknowledge(0, [0, 1, 2], ACK.ACCEPT);
    await stopping;
    expect({ crashes: s.crashes, acksSent: sentAcks(s.t, 0) }).toEqual({ crashes: [], acksSent: [0, 1, 2] });
  });
});

describe('Review (2bb3571): the first heartbeat refused with a code the member does not know', () => {
  it('Kafka 4.4 answers a group id held by a consumer group with GROUP_ID_NOT_FOUND (69), not 23: start() refuses it, instead of starting a member that is crashed 2 s later and restarted until the supervisor gives up', async () => {
    const crashes: string[] = [];
    const t = scripted((req) => {
      if (req.kind === 'md') return md;
      // GroupMetadataManager.getOrMaybeCreateShareGroup (kafka-group-coordinator 4.4.0): GroupIdNotFoundException("Group %s is not a share group.").
      if (req.kind === 'hb') return { ...refused, errorCode: 69, errorMessage: 'Group g is not a share group.' };
      return { errorCode: 0 };
    });
    const m = new ShareMember({ groupId: 'g', topic: 't', transport: t, logger, maxInFlight: 10, fetch: { maxWaitMs: 0, maxBytes: 1 << 20, maxRecords: 10 }, onBatch: () => undefined, onCrash: (e) => void crashes.push(e.message) });
    const started = await m.start().then(() => 'started', (e: Error) => `refused: ${e.message}`);
    await tick(3_000);
    await m.stop(Date.now());
    expect({ started, crashes }).toEqual({ started: expect.stringMatching(/^refused: share group "g"/), crashes: [] });
  });
});
