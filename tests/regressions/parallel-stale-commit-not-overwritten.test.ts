/**
 * A stale group commit not overwritten at once (issue 39, item 2): a commit past the partition's
 * log end (the topic deleted and created again, or its log truncated) is set aside and the log
 * read from its start, and an earlier change meant the first fetch's offset to be committed over
 * it at once. But whether the group held a commit was decided after it was set aside, so the
 * state took the first fetch as its basis and committed nothing until a record was done: a
 * restart before that, once the new log had grown past the old offset, resumed there and skipped
 * everything before it. ParallelPartitions itself is driven here, not only its parts.
 */
import { expect, it, vi } from 'vitest';
import { parallelLog } from '../support/parallel-log.ts';

it('a commit past the log end is overwritten by the first fetch\'s offset before any record is done', async () => {
  let release!: () => void;
  const held = new Promise<void>((r) => (release = r));
  const p = parallelLog({ factor: 4, batchSize: 1, gate: () => held });
  p.setGroup({ offset: 50, metadata: null }); // the old log's commit
  p.append(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j']);
  const running = p.batch();
  // Every chunk is still running: the group's commit must already say where this log starts.
  await vi.waitFor(() => expect(p.group()).toEqual({ offset: 0, metadata: null }), { timeout: 2_000 });
  p.restartFromCommit();
  expect(p.fetchPosition()).toBe(0);
  release();
  await running;
  expect(p.group()!.offset).toBe(10);
});
