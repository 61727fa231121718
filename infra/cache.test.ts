import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { moveIntoPlace, resolveOnce, stagingFor } from './cache.ts';

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

describe('moveIntoPlace', () => {
  const staged = (root: string, name: string, complete = true) => {
    const dir = path.join(root, name);
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a.jar'), name);
    if (complete) writeFileSync(path.join(dir, '.resolved-1'), '');
    return dir;
  };

  it('lets one of several resolutions at once in; the others leave the complete entry alone and their staging goes', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sluice-cache-'));
    const entry = path.join(root, 'kafka-1');
    const results = await Promise.all([1, 2, 3, 4].map((i) => moveIntoPlace(staged(root, `s${i}`), entry, '.resolved-1')));
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(readdirSync(root).sort()).toEqual(['kafka-1']);
    expect(existsSync(path.join(entry, '.resolved-1'))).toBe(true);
  });

  it('replaces an incomplete entry (an interrupted resolution left it without its marker)', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'sluice-cache-'));
    const entry = staged(root, 'kafka-1', false);
    expect(await moveIntoPlace(staged(root, 's1'), entry, '.resolved-1')).toBe(true);
    expect(readdirSync(entry).sort()).toEqual(['.resolved-1', 'a.jar']);
  });
});
