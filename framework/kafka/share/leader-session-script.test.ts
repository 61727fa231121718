/**
 * The share session and member on a scripted broker (each request answered by a script that
 * keeps the broker's session state): what the hostile review of issue 43 proved, each case failing
 * on the code before its fix. The wire and the broker's own behaviour are tested against the real
 * broker in tests/integration/share-member.test.ts.
 */
import { describe, expect, it, vi } from 'vitest';
import { acked, fetched, host, logger, part, rec, recorder, scripted, tick, TOPIC_ID } from '../../../tests/support/scripted-share-broker.ts';
import { LeaderSession } from './leader-session.ts';
import { ACK, type ShareFetchRequest } from './messages.ts';
import { ShareMember } from './share-member.ts';

// Each request carries what it was built from, for the script to read.
vi.mock('./messages.ts', async (original) => {
  const m = await original<typeof import('./messages.ts')>();
  const tag = <A extends unknown[], R extends object>(kind: string, f: (...a: A) => R) => (...a: A) => Object.assign(f(...a), { kind, input: a[0] });
  return { ...m, shareFetch: tag('fetch', m.shareFetch), shareAcknowledge: tag('ack', m.shareAcknowledge), shareGroupHeartbeat: tag('hb', m.shareGroupHeartbeat), metadata: tag('md', m.metadata) };
});

describe('a share session', () => {
  it('forgets at the broker a partition whose leader moved', async () => {
    const session = new Set<number>();
    let fetches = 0;
    const t = scripted((r) => {
      if (r.kind !== 'fetch') return acked;
      const f = r.input as ShareFetchRequest;
      fetches++;
      for (const tp of f.topics) for (const p of tp.partitions) session.add(p.partition);
      for (const tp of f.forgotten) for (const p of tp.partitions) session.delete(p);
      return fetched([...session].map((p) => part(p, p === 1 && fetches > 1 ? { errorCode: 6 } : {}))); // partition 1 moved after the first fetch
    });
    const s = new LeaderSession(1, host(t));
    s.wanted.add(0);
    s.wanted.add(1);
    s.poke();
    await tick(300);
    await s.close();
    const forgotten = t.sent.filter((x) => x.kind === 'fetch').flatMap((x) => (x.input as ShareFetchRequest).forgotten.flatMap((f) => f.partitions));
    expect(forgotten).toContain(1);
    expect(session.has(1)).toBe(false);
  });

  it('hands on the other partitions of a fetch when one partition\'s records cannot be decoded, and that one\'s as unreadable records', async () => {
    let fetches = 0;
    const t = scripted(
      (r) => (r.kind === 'fetch' ? (++fetches === 1 ? fetched([part(0, { acquired: [[0, 4, 1]] }), part(1, { acquired: [[0, 4, 1]] })]) : fetched([])) : acked),
      {
        decode: (p) => {
          if (p === 0) throw new Error('kafkajs could not read partition 0\'s records');
          return [0, 1, 2, 3, 4].map((o) => rec(1, o));
        },
      },
    );
    const h = host(t);
    const s = new LeaderSession(1, h);
    s.wanted.add(0);
    s.wanted.add(1);
    s.poke();
    await tick(300);
    await s.close();
    const byPartition = new Map(h.batches.map((b) => [b.partition, b.records]));
    expect(byPartition.get(1)!.map((r) => r.offset)).toEqual([0, 1, 2, 3, 4]);
    expect(byPartition.get(0)!.map((r) => [r.offset, r.unreadable?.reason])).toEqual([0, 1, 2, 3, 4].map((o) => [o, 'RecordUnreadable']));
  });

  it('releases acquired offsets past what the decoder read, and acknowledges only those within it as gaps', async () => {
    let fetches = 0;
    const t = scripted(
      (r) => (r.kind === 'fetch' ? (++fetches === 1 ? fetched([part(0, { acquired: [[0, 9, 1]] })]) : fetched([])) : acked),
      { decode: () => [0, 1, 3].map((o) => rec(0, o)) }, // 2 has no record (compacted); the decoder stopped after 3
    );
    const h = host(t);
    const s = new LeaderSession(1, h);
    s.wanted.add(0);
    s.poke();
    await tick(300);
    await s.close();
    const batches = t.sent.flatMap((x) => (x.input.topics ?? []).flatMap((tp: { partitions: Array<{ batches: Array<{ firstOffset: bigint; lastOffset: bigint; types: number[] }> }> }) => tp.partitions.flatMap((p) => p.batches)));
    const typeOf = new Map<number, number>();
    for (const b of batches) for (let o = Number(b.firstOffset); o <= Number(b.lastOffset); o++) typeOf.set(o, b.types[0]!);
    expect(typeOf.get(2)).toBe(ACK.GAP);
    expect([4, 5, 6, 7, 8, 9].map((o) => typeOf.get(o))).toEqual(Array(6).fill(ACK.RELEASE));
    expect(h.batches[0]!.records.map((r) => r.offset)).toEqual([0, 1, 3]);
  });

  it('waits before asking again when the broker refuses the session itself (SHARE_SESSION_LIMIT_REACHED)', async () => {
    let fetches = 0;
    const t = scripted((r) => (r.kind === 'fetch' ? (fetches++, { ...fetched([]), errorCode: 133, errorMessage: 'limit' }) : acked));
    const s = new LeaderSession(1, host(t));
    s.wanted.add(0);
    s.poke();
    await tick(1_000);
    await s.close();
    expect(fetches).toBeLessThan(10); // one a RETRY_MS (500 ms), not one a round trip
  });

  it('wraps its epoch after 2147483647 on a ShareAcknowledge as on a ShareFetch', async () => {
    const t = scripted((r) => (r.kind === 'fetch' ? fetched([]) : acked));
    let wants = true;
    const s = new LeaderSession(1, host(t, { wantsRecords: () => wants }));
    s.wanted.add(0);
    s.poke();
    await tick(30);
    wants = false; // at its bound: acknowledgements go on a ShareAcknowledge
    await tick(30);
    (s as unknown as { epoch: number }).epoch = 2147483647;
    s.acknowledge(0, [7], ACK.ACCEPT);
    await tick(30);
    s.acknowledge(0, [8], ACK.ACCEPT);
    await tick(100);
    await s.close();
    expect(t.sent.filter((x) => x.kind === 'ack').map((x) => x.input.sessionEpoch).slice(0, 2)).toEqual([2147483647, 1]);
  });
});

describe('what became of acknowledgements', () => {
  it('says which the broker applied and which it refused, partition by partition', async () => {
    let fetches = 0;
    const t = scripted((r) => {
      if (r.kind !== 'fetch') return acked;
      fetches++;
      if (fetches === 1) return fetched([part(0, { acquired: [[0, 4, 1]] }), part(1, { acquired: [[0, 4, 1]] })]);
      const named = (r.input as ShareFetchRequest).topics.flatMap((tp) => tp.partitions.map((p) => p.partition));
      return fetched(named.map((p) => part(p, p === 1 ? { ackErrorCode: 76 } : {}))); // INVALID_RECORD_STATE: partition 1's locks ran out
    });
    const r = recorder();
    const s = new LeaderSession(1, host(t, { acknowledged: r.acknowledged }));
    s.wanted.add(0);
    s.wanted.add(1);
    s.poke();
    await tick(100);
    s.acknowledge(0, [0, 1], ACK.ACCEPT);
    s.acknowledge(1, [0], ACK.ACCEPT);
    await tick(200);
    await s.close();
    expect(r.outcomes.slice(0, 2).sort((a, b) => a.partition - b.partition)).toEqual([{ partition: 0, offsets: [0, 1], outcome: 'applied' }, { partition: 1, offsets: [0], outcome: 'refused', error: '76' }]);
  });

  it('gives up, saying so, what waited for a session that was lost while the partition moved to another leader, and what waited when it closed with no session', async () => {
    let failing = false;
    let fetches = 0;
    const t = scripted((r) => {
      if (failing) throw new Error('connection lost');
      if (r.kind !== 'fetch') return acked;
      return ++fetches === 1 ? fetched([part(0, { acquired: [[0, 2, 1]] }), part(1, { acquired: [[0, 2, 1]] })]) : fetched([]);
    });
    const r = recorder();
    const s = new LeaderSession(1, host(t, { acknowledged: r.acknowledged }));
    s.wanted.add(0);
    s.wanted.add(1);
    s.poke();
    await tick(100);
    failing = true; // the leader is gone: the request carrying these fails and the session with it
    s.acknowledge(0, [0], ACK.ACCEPT);
    s.acknowledge(1, [1], ACK.ACCEPT);
    await tick(100);
    s.wanted.delete(0); // partition 0 moved to another leader meanwhile
    await tick(600);
    expect(r.outcomes).toEqual([{ partition: 0, offsets: [0], outcome: 'unsent', error: expect.stringContaining('moved to another leader') }]);
    await s.close(); // partition 1's acknowledgement still waits for a session
    expect(r.outcomes[1]).toEqual({ partition: 1, offsets: [1], outcome: 'unsent', error: expect.stringContaining('session was lost') });
  });

  it('says the fate of acknowledgements in flight when their request failed is unknown, and sends them again', async () => {
    let failOnce = true;
    let fetches = 0;
    const t = scripted((r) => {
      if (r.kind !== 'fetch') return acked;
      const f = r.input as ShareFetchRequest;
      if (failOnce && f.topics.some((tp) => tp.partitions.some((p) => p.batches.length > 0))) {
        failOnce = false;
        throw new Error('connection closed');
      }
      const named = f.topics.flatMap((tp) => tp.partitions.map((p) => p.partition));
      return ++fetches === 1 ? fetched([part(0, { acquired: [[0, 2, 1]] })]) : fetched(named.map((p) => part(p)));
    });
    const r = recorder();
    const s = new LeaderSession(1, host(t, { acknowledged: r.acknowledged }));
    s.wanted.add(0);
    s.poke();
    await tick(100);
    s.acknowledge(0, [0, 1, 2], ACK.ACCEPT);
    await tick(800);
    await s.close();
    expect(r.outcomes).toEqual([
      { partition: 0, offsets: [0, 1, 2], outcome: 'unknown', error: expect.stringContaining('connection closed') },
      { partition: 0, offsets: [0, 1, 2], outcome: 'applied' },
    ]);
  });
});

describe('a share member', () => {
  it('keeps counting the records in hand across a fencing, so it never holds more than its bound', async () => {
    let fence = false;
    let next = 0;
    const t = scripted((r) => {
      if (r.kind === 'md') return { brokers: [], topics: [{ name: 't', topicId: TOPIC_ID, errorCode: 0, partitions: [{ partition: 0, leader: 1, leaderEpoch: 0, errorCode: 0 }] }] };
      if (r.kind === 'hb') {
        if (fence) return (fence = false), { errorCode: 110, errorMessage: 'fenced', memberId: null, memberEpoch: -1, heartbeatIntervalMs: 0, assignment: null };
        return { errorCode: 0, errorMessage: null, memberId: 'm', memberEpoch: 1, heartbeatIntervalMs: 30, assignment: [{ topicId: TOPIC_ID, partitions: [0] }] };
      }
      if (r.kind === 'fetch') {
        const first = next;
        next += 10;
        return fetched([part(0, { acquired: [[first, first + 9, 1]] })]);
      }
      return acked;
    });
    const inHand = new Set<number>();
    const m = new ShareMember({ groupId: 'g', topic: 't', transport: t, logger, maxInFlight: 10, fetch: { maxWaitMs: 0, maxBytes: 1 << 20, maxRecords: 10 }, onBatch: (b) => b.records.forEach((r) => inHand.add(r.offset)), onCrash: () => undefined });
    await m.start();
    await tick(100); // offsets 0-9 in hand: at the bound, no more fetching
    fence = true; // fenced; it joins again
    await tick(800);
    for (let o = 0; o < 10; o++) if (inHand.delete(o)) m.acknowledge(0, [o], ACK.ACCEPT);
    await tick(200);
    await m.stop(Date.now());
    expect(inHand.size).toBeLessThanOrEqual(10);
    expect(m.held()).toBe(inHand.size);
  });
});
