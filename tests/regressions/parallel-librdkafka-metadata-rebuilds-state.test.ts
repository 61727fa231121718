/**
 * Needless re-runs on librdkafka (issue 39, item 6): its binding ends committed metadata with C's
 * NUL, so the commit read back at a rejoin never equalled the one this poller made, and every
 * reassignment rebuilt the partition's state from it, as if another member had committed: a held
 * retry started its attempts again (and a bisection its halves), finished but uncommitted records
 * ran again. The same held for a commit without metadata on either engine (the broker answers ""
 * for the null this poller keeps). A rejoin that finds the poller's own commit keeps the state.
 */
import { expect, it } from 'vitest';
import { parallelLog } from '../support/parallel-log.ts';

it.each([true, false])('a rejoin that reads back this poller\'s own commit keeps its retry state (metadata ending in NUL: %s)', async (metadataNul) => {
  const p = parallelLog({ factor: 4, batchSize: 1, metadataNul, fails: (offsets, attempts) => offsets.includes(3) && attempts < 2 });
  p.append(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
  await p.batch();
  expect(p.group()!.offset).toBe(3); // 4-7 done beyond it, in the metadata
  for (let i = 0; i < 50 && !p.invocations.some((v) => v.offsets.includes(3) && v.ok); i++) {
    p.rejoin(); // a rebalance that gave the partition back to this poller
    await new Promise((r) => setTimeout(r, 100));
    await p.batch();
  }
  const attempts = p.invocations.filter((v) => v.offsets.includes(3)).map((v) => v.attempts);
  console.log(`[own commit, NUL ${metadataNul}] offset 3 invoked with attempts ${JSON.stringify(attempts)}; commit ${JSON.stringify(p.group())}`);
  // Rebuilt at each rejoin, the retry would start from attempt 0 again and never pass its second failure.
  expect(attempts).toEqual([0, 1, 2]);
  expect(p.invocations.filter((v) => v.offsets.some((o) => o !== 3)).map((v) => v.offsets[0])).toEqual([0, 1, 2, 4, 5, 6, 7]);
  expect(p.group()).toEqual({ offset: 8, metadata: null });
});
