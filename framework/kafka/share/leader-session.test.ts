import { describe, expect, it } from 'vitest';
import { ranges } from './leader-session.ts';
import { ACK, type AckType } from './messages.ts';

describe('ranges', () => {
  it('folds consecutive offsets of one type into one batch, whatever order they were acknowledged in', () => {
    const of = new Map<number, AckType>([[7, ACK.ACCEPT], [5, ACK.ACCEPT], [6, ACK.ACCEPT], [8, ACK.RELEASE], [10, ACK.RELEASE], [11, ACK.GAP]]);
    expect(ranges(of)).toEqual([
      { firstOffset: 5n, lastOffset: 7n, types: [ACK.ACCEPT] },
      { firstOffset: 8n, lastOffset: 8n, types: [ACK.RELEASE] },
      { firstOffset: 10n, lastOffset: 10n, types: [ACK.RELEASE] },
      { firstOffset: 11n, lastOffset: 11n, types: [ACK.GAP] },
    ]);
  });

  it('covers every offset exactly once, with its own type (random acknowledgements)', () => {
    for (let round = 0; round < 200; round++) {
      const of = new Map<number, AckType>();
      for (let i = 0; i < 40; i++) of.set(Math.floor(Math.random() * 60), [ACK.GAP, ACK.ACCEPT, ACK.RELEASE, ACK.REJECT][Math.floor(Math.random() * 4)] as AckType);
      const back = new Map<number, AckType>();
      for (const b of ranges(of)) for (let o = Number(b.firstOffset); o <= Number(b.lastOffset); o++) {
        expect(back.has(o)).toBe(false);
        back.set(o, b.types[0]!);
      }
      expect(back).toEqual(of);
    }
  });
});
