import { describe, expect, it } from 'vitest';
import { Commits } from './commits.ts';

/** librdkafka's side, scripted: each commit sent is answered by the next of `answers` (null: on the broker). */
function scripted(answers: Array<{ code: number; message: string } | null>) {
  const sent: Array<{ partition: number; offset: number; metadata?: string | null }> = [];
  const retries: string[] = [];
  const commits: Commits = new Commits(
    {
      commitCb(offsets, queued) {
        sent.push(...offsets.map(({ partition, offset, metadata }) => ({ partition, offset, ...(metadata !== undefined ? { metadata } : {}) })));
        queued(null);
        const answer = answers.shift() ?? null;
        // The answer comes later, from a poll, with the partitions it was about.
        setTimeout(() => commits.answered(answer as never, offsets.map(({ topic, partition, offset }) => ({ topic, partition, offset }))), 1);
      },
    },
    'orders',
    (message) => retries.push(message),
  );
  return { commits, sent, retries };
}

describe('Commits (librdkafka member)', () => {
  it('resolves on the answer, and a refusal that is not about the coordinator is the answer', async () => {
    const { commits, sent } = scripted([null, { code: 12, message: 'Broker: Offset metadata string too large' }]);
    expect(await commits.commit(0, 10, undefined, () => true)).toBeNull();
    expect(await commits.commit(0, 20, 'x'.repeat(5000), () => true)).toMatchObject({ code: 12 });
    expect(sent.map((s) => s.offset)).toEqual([10, 20]);
  });

  it('sends a commit again while the coordinator is loading or a member epoch behind, then resolves', async () => {
    const { commits, sent, retries } = scripted([
      { code: 14, message: 'Broker: Coordinator load in progress' },
      { code: 113, message: 'Broker: Stale member epoch' },
      null,
    ]);
    expect(await commits.commit(3, 42, undefined, () => true)).toBeNull();
    expect(sent).toEqual([{ partition: 3, offset: 42 }, { partition: 3, offset: 42 }, { partition: 3, offset: 42 }]);
    expect(retries).toEqual([
      'the coordinator answered the commit with COORDINATOR_LOAD_IN_PROGRESS: sending it again in 100 ms',
      'the coordinator answered the commit with STALE_MEMBER_EPOCH: sending it again in 200 ms',
    ]);
  });

  it('does not send again for a partition the member no longer owns', async () => {
    const { commits, sent } = scripted([{ code: 14, message: 'Broker: Coordinator load in progress' }]);
    expect(await commits.commit(1, 5, undefined, () => false)).toMatchObject({ code: 14 });
    expect(sent).toHaveLength(1);
  });

  it('gives up after six sends', async () => {
    const busy = { code: 16, message: 'Broker: Not coordinator' };
    const { commits, sent } = scripted(Array.from({ length: 10 }, () => busy));
    expect(await commits.commit(0, 1, undefined, () => true)).toEqual(busy);
    expect(sent).toHaveLength(6);
  }, 10_000);

  it('matches answers by partition and offset, whatever their order', async () => {
    const sent: Array<{ partition: number; offset: number }> = [];
    const commits = new Commits({ commitCb: (offsets, queued) => (sent.push(...offsets), queued(null)) }, 'orders', () => undefined);
    const a = commits.commit(0, 10, undefined, () => true);
    const b = commits.commit(1, 10, undefined, () => true);
    commits.answered(null, [{ topic: 'orders', partition: 1, offset: 10 }]);
    commits.answered({ code: 25, message: 'Broker: Unknown member' } as never, [{ topic: 'orders', partition: 0, offset: 10 }]);
    expect(await b).toBeNull();
    expect(await a).toMatchObject({ code: 25 });
  });

  it('answers what is pending when the member leaves', async () => {
    const commits = new Commits({ commitCb: (_offsets, queued) => queued(null) }, 'orders', () => undefined);
    const pending = commits.commit(0, 10, undefined, () => true);
    commits.abandon();
    expect(await pending).toMatchObject({ message: 'the member left before the commit was answered' });
  });
});
