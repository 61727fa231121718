/**
 * Review 2 (64213f6): "a cluster without share groups is refused at start in one line ... without
 * restarting the member". Only the very first heartbeat's refusal is thrown: when that first
 * heartbeat does not reach the coordinator (a freshly started broker still creating
 * __consumer_offsets, a connection blip), start() resolves and the next heartbeat's
 * UNSUPPORTED_VERSION goes to onCrash — the supervisor restarts the member, as before the commit.
 */
import { describe, expect, it, vi } from 'vitest';
import { logger, scripted, tick, TOPIC_ID } from '../../../tests/support/scripted-share-broker.ts';
import { ShareMember } from './share-member.ts';

vi.mock('./messages.ts', async (original) => {
  const m = await original<typeof import('./messages.ts')>();
  const tag = <A extends unknown[], R extends object>(kind: string, f: (...a: A) => R) => (...a: A) => Object.assign(f(...a), { kind, input: a[0] });
  return { ...m, shareFetch: tag('fetch', m.shareFetch), shareAcknowledge: tag('ack', m.shareAcknowledge), shareGroupHeartbeat: tag('hb', m.shareGroupHeartbeat), metadata: tag('md', m.metadata) };
});

describe('Review 2 (64213f6): a cluster without share groups whose first heartbeat did not reach the coordinator', () => {
  it('is still refused by start() (thrown, no onCrash), not left to crash and be restarted', async () => {
    let beats = 0;
    const crashes: string[] = [];
    const t = scripted((r) => {
      if (r.kind === 'md') return { brokers: [], topics: [{ name: 't', topicId: TOPIC_ID, errorCode: 0, partitions: [{ partition: 0, leader: 1, leaderEpoch: 0, errorCode: 0 }] }] };
      if (r.kind === 'hb') {
        // The first heartbeat's coordinator lookup fails (the broker just started); every later one: UNSUPPORTED_VERSION (share.version=0).
        if (++beats === 1) throw new Error('The group coordinator is not available');
        return { errorCode: 35, errorMessage: 'The version of API is not supported.', memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null };
      }
      return { errorCode: 0 };
    });
    const m = new ShareMember({ groupId: 'g', topic: 't', transport: t, logger, maxInFlight: 10, fetch: { maxWaitMs: 0, maxBytes: 1 << 20, maxRecords: 10 }, onBatch: () => undefined, onCrash: (e) => void crashes.push(e.message) });
    const started = await m.start().then(() => 'started', (e: Error) => `refused: ${e.message}`);
    await tick(1_500); // the retried heartbeat (1 s later) has its answer
    await m.stop(Date.now());
    expect({ started, crashes }).toEqual({ started: expect.stringMatching(/^refused: share group "g" cannot be joined \(UNSUPPORTED_VERSION\)/), crashes: [] });
  });
});
