import { describe, expect, it } from 'vitest';
import { resolveOnce, stagingFor } from './cache.ts';

describe('resolveOnce', () => {
  it('runs one resolution of an entry at a time in a process; a second caller waits for it', async () => {
    let runs = 0;
    let finish!: () => void;
    const slow = () => { runs++; return new Promise<void>((r) => (finish = r)); };
    const a = resolveOnce('/cache/kafka-4.4.0', slow);
    const b = resolveOnce('/cache/kafka-4.4.0', slow);
    expect(runs).toBe(1);
    finish();
    await Promise.all([a, b]);
    // Once it ended, the next caller resolves again (it finds the entry's marker and returns at once).
    await resolveOnce('/cache/kafka-4.4.0', async () => void runs++);
    expect(runs).toBe(2);
  });

  it('gives each call its own staging directory', () => {
    expect(stagingFor('/c/kafka')).not.toBe(stagingFor('/c/kafka'));
    expect(stagingFor('/c/kafka')).toMatch(new RegExp(`^/c/kafka\\.tmp-${process.pid}-[0-9a-f]{8}$`));
  });
});
