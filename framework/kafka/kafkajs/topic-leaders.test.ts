import { describe, expect, it } from 'vitest';
import { waitForLeaders } from './topic-leaders.ts';

type Metadata = { topics: Array<{ name: string; partitions: Array<{ partitionId: number; leader: number; partitionErrorCode: number }> }> };
const protocolError = (type: string) => Object.assign(new Error(type), { type });

/** An admin whose metadata answers come from `answers`, one a call, the last repeated. */
const adminAnswering = (answers: Array<Metadata | Error>) => {
  let calls = 0;
  return {
    calls: () => calls,
    fetchTopicMetadata: async () => {
      const a = answers[Math.min(calls++, answers.length - 1)]!;
      if (a instanceof Error) throw a;
      return a;
    },
  };
};
const led = (leader: number): Metadata => ({ topics: [{ name: 'orders', partitions: [{ partitionId: 0, leader, partitionErrorCode: leader < 0 ? 5 : 0 }] }] });

describe('waitForLeaders', () => {
  it('waits through "this server does not host this topic-partition" and a missing leader, then returns', async () => {
    const admin = adminAnswering([protocolError('UNKNOWN_TOPIC_OR_PARTITION'), led(-1), led(1)]);
    await waitForLeaders(admin, ['orders'], 5_000, 1);
    expect(admin.calls()).toBe(3);
  });

  it('gives up after its bound, saying what it waited for', async () => {
    const admin = adminAnswering([led(-1)]);
    await expect(waitForLeaders(admin, ['orders'], 20, 1)).rejects.toThrow(/topics orders have no leader after 0\.02 s: orders-0 without a leader/);
  });

  it('passes on any other error at once', async () => {
    const admin = adminAnswering([protocolError('TOPIC_AUTHORIZATION_FAILED')]);
    await expect(waitForLeaders(admin, ['orders'], 5_000, 1)).rejects.toThrow('TOPIC_AUTHORIZATION_FAILED');
    expect(admin.calls()).toBe(1);
  });
});
