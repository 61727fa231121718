/**
 * fetchFromLater on kafkajs (issue 39): a timer a batch of one generation set must not seek in a
 * later one, which fetches from the group's commit (another member may have moved it); found by
 * review. kafkajs is replaced by a consumer that records seeks and lets the test emit joins.
 */
import { describe, expect, it } from 'vitest';
import { createGroupMember } from './group-member.ts';
import type { PartitionBatch } from '../member-port.ts';
import { fakeKafkajs, fakeMemberOptions } from '../../../tests/support/fake-kafkajs.ts';

/** A member whose every batch asks to fetch from offset 95 in 50 ms. */
const memberAsking95 = (f: ReturnType<typeof fakeKafkajs>) => createGroupMember(fakeMemberOptions(f, {
  onBatch: async (b: PartitionBatch) => b.fetchFromLater(95, 50), onCrash: () => undefined,
}));

describe('kafkajs member: fetchFromLater across a rebalance', () => {
  it('does not seek, in a later generation, to an offset a batch of an older generation asked for', async () => {
    const f = fakeKafkajs();
    const member = memberAsking95(f);
    await member.start();
    f.join({ t: [0] }); // generation 1
    await f.batch([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]); // held work at 95, asked for in 50 ms
    f.join({ t: [] }); // generation 2: the partition went to another member (which commits, say, 92)
    f.join({ t: [0] }); // generation 3: it comes back; kafkajs would fetch from the group's commit
    await new Promise((r) => setTimeout(r, 100));
    expect(f.seeks, 'a seek asked by generation 1 overrides generation 3\'s fetch from the group commit').toEqual([]);
  });

  it('seeks in the generation that asked, once no batch of the partition began meanwhile', async () => {
    const f = fakeKafkajs();
    const member = memberAsking95(f);
    await member.start();
    f.join({ t: [0] });
    await f.batch([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
    await new Promise((r) => setTimeout(r, 100));
    expect(f.seeks).toEqual([{ topic: 't', partition: 0, offset: '95' }]);
  });
});

// kafkajs's resolveOffset acts on the current generation's positions: a batch that ends after a rejoin
// set the new generation's fetch to past the records it held (found by review: with the state then
// built anew from an older commit, the records between were taken for done gaps and committed past).
describe('kafkajs member: fetchFrom across a rejoin', () => {
  it('a batch that ends after a rejoin does not set where the new generation fetches', async () => {
    const f = fakeKafkajs();
    let rejoin!: () => void;
    const member = createGroupMember(fakeMemberOptions(f, {
      onBatch: async (b: PartitionBatch) => {
        b.fetchFrom(93);
        rejoin();
        b.fetchFrom(100);
      },
      onCrash: () => undefined,
    }));
    await member.start();
    f.join({ t: [0] });
    rejoin = () => f.join({ t: [0] });
    await f.batch([90, 91, 92, 93, 94, 95, 96, 97, 98, 99]);
    expect(f.resolved.map((r) => r.offset), 'only the generation that fetched the batch moves the position').toEqual(['92']);
  });
});
