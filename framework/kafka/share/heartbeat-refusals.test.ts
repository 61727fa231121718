/**
 * A heartbeat refused with a code the member does not know (neither fatal, nor the coordinator
 * moving, nor the member gone) was warned about every 500 ms for ever, and the member went on
 * refused. Now the first refusal of a run is warned about once, and refusals in a row end the member
 * (onCrash, with the code and the broker's message) so the supervisor restarts it with its backoff,
 * and gives up as it does for any member that cannot run.
 */
import { describe, expect, it, vi } from 'vitest';
import { createLogger } from '../../observe/logger.ts';
import { scripted, tick, TOPIC_ID } from '../../../tests/support/scripted-share-broker.ts';
import { ShareMember } from './share-member.ts';

vi.mock('./messages.ts', async (original) => {
  const m = await original<typeof import('./messages.ts')>();
  const tag = <A extends unknown[], R extends object>(kind: string, f: (...a: A) => R) => (...a: A) => Object.assign(f(...a), { kind, input: a[0] });
  return { ...m, shareFetch: tag('fetch', m.shareFetch), shareAcknowledge: tag('ack', m.shareAcknowledge), shareGroupHeartbeat: tag('hb', m.shareGroupHeartbeat), metadata: tag('md', m.metadata) };
});

describe('a share group heartbeat refused with a code the member does not know', () => {
  it('is warned about once, and refusals in a row end the member with the code and the broker\'s words', async () => {
    let beats = 0;
    const crashes: string[] = [];
    const warnings: string[] = [];
    const logger = createLogger('t', { level: 'warn', write: (line) => void warnings.push(line) });
    const t = scripted((r) => {
      if (r.kind === 'md') return { brokers: [], topics: [{ name: 't', topicId: TOPIC_ID, errorCode: 0, partitions: [{ partition: 0, leader: 1, leaderEpoch: 0, errorCode: 0 }] }] };
      if (r.kind === 'hb') {
        // Joined first; from then on every heartbeat is refused with INVALID_REQUEST (42).
        if (++beats === 1) return { errorCode: 0, errorMessage: null, memberId: 'm-1', memberEpoch: 1, heartbeatIntervalMs: 100, assignment: null };
        return { errorCode: 42, errorMessage: 'This most likely occurs because of a request being malformed.', memberId: null, memberEpoch: 0, heartbeatIntervalMs: 0, assignment: null };
      }
      return { errorCode: 0 };
    });
    const m = new ShareMember({ groupId: 'g', topic: 't', transport: t, logger, maxInFlight: 10, fetch: { maxWaitMs: 0, maxBytes: 1 << 20, maxRecords: 10 }, onBatch: () => undefined, onCrash: (e) => void crashes.push(e.message) });
    await m.start();
    await tick(4_000); // 7 refusals' worth at one every 500 ms
    await m.stop(Date.now());
    expect(crashes).toEqual([expect.stringMatching(/share group "g" refused 5 heartbeats in a row \(error 42\): This most likely occurs because of a request being malformed\./)]);
    expect(warnings.filter((w) => w.includes('heartbeat refused'))).toHaveLength(1);
  });
});
