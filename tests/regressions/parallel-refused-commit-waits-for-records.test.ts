/**
 * A refused parallel commit retried only when the next record arrives (issue 39, item 8): when
 * the coordinator refused the commit of chunks that had finished (it moved, a rebalance was
 * under way), the run ended and the partition fetched on past its records. kafkajs rejoins on
 * such a refusal and a batch follows; librdkafka does not, so a partition that got no new
 * records kept its done work uncommitted, and a restart ran it again. Now the partition fetches
 * its records again after a pause, and that batch's run commits (nothing is invoked twice).
 */
import { expect, it } from 'vitest';
import { parallelLog } from '../support/parallel-log.ts';

it('an idle partition whose commits were refused commits its done work with the next fetch of the same records', async () => {
  let refusing = true;
  const p = parallelLog({ factor: 4, batchSize: 1, refuse: () => refusing });
  p.append(['a', 'b', 'c', 'd']);
  await p.batch();
  expect(p.group()).toBeUndefined(); // every commit of the run was refused
  refusing = false;
  await p.batch(); // no record was written since: only a fetch of the same records can bring a batch
  console.log(`[refused] commits ${JSON.stringify(p.commits.map((c) => `${c.next}:${c.answer}`))}; group ${JSON.stringify(p.group())}`);
  expect(p.group()).toEqual({ offset: 4, metadata: null });
  expect(p.invocations.map((v) => v.offsets[0]).sort()).toEqual([0, 1, 2, 3]);
});

// Found by review: a refusal that a later commit of the same run mended still made the partition fetch its records again.
it('a refusal mended by a later commit of the same run: the partition fetches on from the commit', async () => {
  let release!: () => void;
  const gate = new Promise<void>((r) => (release = r));
  const p = parallelLog({ factor: 4, batchSize: 1, commitAnswers: ['refused'], gate: async (offsets) => (offsets[0]! > 0 ? gate : undefined) });
  p.append(['a', 'b', 'c', 'd']);
  const run = p.batch();
  await new Promise((r) => setTimeout(r, 50)); // offset 0 done, its commit refused; 1-3 still running
  release();
  await run;
  console.log(`[refused, mended] commits ${JSON.stringify(p.commits.map((c) => `${c.next}:${c.answer}`))}; group ${JSON.stringify(p.group())}; next fetch from ${p.fetchPosition()}`);
  expect(p.group()).toEqual({ offset: 4, metadata: null });
  expect(p.fetchPosition()).toBe(4);
});
