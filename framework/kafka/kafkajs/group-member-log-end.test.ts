/**
 * The kafkajs member's committed-offset guard against a fetch's log end below it (found by review):
 * a rejoin while ListOffsets is asked must not let the old batch set the new generation's position;
 * a recreated log that grows past the old commit while ListOffsets is asked must still be read as new
 * (its records' timestamps are newer than any the poller handed on); a trailing high watermark with
 * the same records again is not a new log. kafkajs is replaced by a consumer the test drives; the
 * log ends come from log-end.ts's LogEnds, as poller.ts wires them.
 */
import { describe, expect, it } from 'vitest';
import { fakeKafkajs, fakeMemberOptions } from '../../../tests/support/fake-kafkajs.ts';
import { LogEnds } from '../log-end.ts';
import { createGroupMember } from './group-member.ts';
import type { PartitionBatch } from '../member-port.ts';

function harness(readLogEnd: (topic: string, partition: number, newestBelow?: number) => Promise<number>, onSeen: (records: PartitionBatch['records']) => void = () => undefined) {
  const f = fakeKafkajs();
  const handled: number[] = [];
  const member = createGroupMember(fakeMemberOptions(f, {
    readLogEnd,
    onBatch: async (b: PartitionBatch) => {
      handled.push(...b.records.map((r) => r.offset));
      onSeen(b.records);
      await b.commit(b.records.at(-1)!.offset + 1);
    },
    onCrash: () => undefined,
  }));
  /** A batch of [offset, timestamp] pairs under the given high watermark. */
  const batch = (records: Array<[offset: number, timestamp: number]>, hw: number) => f.batch(records.map(([offset, timestamp]) => ({ offset, timestamp })), hw);
  return { member, join: f.join, batch, resolved: f.resolved, handled };
}

const T = 1_700_000_000_000;

describe('kafkajs member: a fetched log end below its commit', () => {
  it('a rejoin while ListOffsets is asked: the old batch does not set where the new generation fetches', async () => {
    let answer!: (n: number) => void;
    const h = harness(() => new Promise<number>((r) => (answer = r)));
    await h.member.start();
    h.join({ t: [0] });
    await h.batch([[33, T], [34, T]], 35); // committed 35
    const trailing = h.batch([[33, T]], 34); // a new leader's trailing high watermark: ListOffsets asked
    await new Promise((r) => setTimeout(r, 5));
    h.join({ t: [] }); // the partition goes to another member...
    h.join({ t: [0] }); // ...and comes back: kafkajs fetches from the group's commit
    answer(35);
    await trailing;
    expect(h.resolved.filter((r) => r.generation === 3), 'generation 1\'s guard resolved into generation 3').toEqual([]);
    expect(h.handled).toEqual([33, 34]);
  });

  it('a recreated log that grew past the old commit while ListOffsets was asked is still new: its records are newer than any handed on', async () => {
    const ends = new LogEnds(async () => 40, 1_000); // by the time it answers, the new log has 40 records
    const h = harness((_t, p, newest) => ends.of(p, newest), (records) => ends.seen(0, records));
    await h.member.start();
    h.join({ t: [0] });
    await h.batch([[33, T], [34, T]], 35); // the old log, committed 35
    // Deleted and created again; kafkajs's fetch at 35 is out of range and resets to 0.
    await h.batch(Array.from({ length: 10 }, (_, i): [number, number] => [i, T + 60_000]), 10);
    expect(h.handled.filter((o) => o < 10), 'the new log\'s first records').toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('the same records again under a trailing high watermark: ListOffsets says the log goes on, they are skipped', async () => {
    let asked = 0;
    const ends = new LogEnds(async () => (asked++, 35), 1_000);
    const h = harness((_t, p, newest) => ends.of(p, newest), (records) => ends.seen(0, records));
    await h.member.start();
    h.join({ t: [0] });
    await h.batch([[33, T], [34, T]], 35);
    await h.batch([[33, T]], 34);
    expect(asked).toBe(1);
    expect(h.handled).toEqual([33, 34]);
  });
});
