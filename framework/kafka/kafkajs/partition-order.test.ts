import { describe, expect, it } from 'vitest';
import { PartitionOrder } from './partition-order.ts';

const tick = () => new Promise((r) => setTimeout(r, 5));

describe('PartitionOrder', () => {
  it("runs a partition's batches one after the other, and other partitions' beside them", async () => {
    const order = new PartitionOrder();
    const log: string[] = [];
    const batch = (key: string, name: string, ms: number) =>
      order.serialize(key, async () => {
        log.push(`${name} start`);
        await new Promise((r) => setTimeout(r, ms));
        log.push(`${name} end`);
      });
    await Promise.all([batch('t:1', 'a', 30), batch('t:1', 'b', 1), batch('t:2', 'c', 1)]);
    expect(log.indexOf('b start')).toBeGreaterThan(log.indexOf('a end'));
    expect(log.indexOf('c end')).toBeLessThan(log.indexOf('a end'));
  });

  it('goes on after a batch that threw', async () => {
    const order = new PartitionOrder();
    const failed = order.serialize('t:1', async () => {
      await tick();
      throw new Error('boom');
    });
    const next = order.serialize('t:1', async () => 'ran');
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('ran');
  });

  it('remembers the furthest offset this member committed, per partition', () => {
    const order = new PartitionOrder();
    expect(order.doneBelow('t:1')).toBeUndefined();
    order.committed('t:1', 40);
    order.committed('t:1', 25); // a late answer of an earlier commit never moves it back
    order.committed('t:2', 7);
    expect([order.doneBelow('t:1'), order.doneBelow('t:2')]).toEqual([40, 7]);
  });
});
