/**
 * A failure's retry state (its attempts) is kept per partition between fetches, and dropped when the
 * log ends below it: the topic was recreated, or its log truncated. A fetch's high watermark can trail
 * the last leader's for a moment after a leader change; read as a log end it dropped the state, and
 * the record ran past maximumRetryAttempts. ListOffsets (readLogEnd) decides when it can be asked.
 */
import { describe, expect, it } from 'vitest';
import { createLogger } from '../observe/logger.ts';
import { BatchProcessor } from './batch-processor.ts';
import type { RememberedItem } from './work-plan.ts';

const failing: RememberedItem = { from: 33, until: 34, attempts: 2, bytes: 0, sendFailures: 0, error: 'boom' };

function processorRemembering(): BatchProcessor {
  const p = new BatchProcessor({ logger: createLogger('test', { level: 'error' }) } as never);
  p.remembered.set('t-0', [failing]);
  return p;
}

describe('retry state against the log end', () => {
  it('is kept when the fetch\'s high watermark trails and ListOffsets says the log goes on', async () => {
    const p = processorRemembering();
    expect(await p.rememberedFor('t', 0, 34, async () => 35)).toEqual([failing]);
    expect(p.remembered.get('t-0')).toEqual([failing]);
  });

  it('is dropped when ListOffsets agrees the log ends below it (a recreated topic)', async () => {
    const p = processorRemembering();
    expect(await p.rememberedFor('t', 0, 3, async () => 3)).toBeUndefined();
    expect(p.remembered.has('t-0')).toBe(false);
  });

  it('believes the high watermark when ListOffsets cannot be asked: a record may run again, none of a new log is skipped', async () => {
    const p = processorRemembering();
    expect(await p.rememberedFor('t', 0, 34, async () => { throw new Error('no admin'); })).toBeUndefined();
  });

  it('asks nothing when the high watermark is past what it remembers', async () => {
    const p = processorRemembering();
    expect(await p.rememberedFor('t', 0, 40, async () => { throw new Error('not asked'); })).toEqual([failing]);
  });
});
