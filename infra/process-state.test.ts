import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { clearRecorded, readRecorded, writeRecorded, type RecordFiles } from './process-state.ts';

interface State { pid: number; url: string }
const parse = (text: string): State | undefined => {
  const v = JSON.parse(text) as Partial<State>;
  return typeof v.pid === 'number' && typeof v.url === 'string' ? { pid: v.pid, url: v.url } : undefined;
};

let dir: string;
let files: RecordFiles;
beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sluice-process-state-'));
  files = { pidFile: path.join(dir, 'x.pid'), stateFile: path.join(dir, 'x.json') };
});
afterEach(() => rm(dir, { recursive: true, force: true }));

it('reads back what it wrote: the pid alone in the pid file, the state as JSON', async () => {
  await writeRecorded(files, { pid: 42, url: 'http://x' });
  expect(await readFile(files.pidFile, 'utf8')).toBe('42\n');
  expect(await readRecorded(files, parse)).toEqual({ kind: 'recorded', pid: 42, state: { pid: 42, url: 'http://x' } });
});

it('reports no pid file as none, and a state of another pid or none at all as unknown', async () => {
  expect(await readRecorded(files, parse)).toEqual({ kind: 'none' });
  await writeFile(files.pidFile, '42\n');
  expect(await readRecorded(files, parse)).toEqual({ kind: 'recorded', pid: 42, state: undefined });
  await writeFile(files.stateFile, JSON.stringify({ pid: 41, url: 'http://x' }));
  expect(await readRecorded(files, parse)).toEqual({ kind: 'recorded', pid: 42, state: undefined });
});

it('reports a pid file it did not write as pid 0, which clearing removes', async () => {
  await writeFile(files.pidFile, 'not a pid\n');
  expect(await readRecorded(files, parse)).toEqual({ kind: 'recorded', pid: 0, state: undefined });
  await clearRecorded(files, 42);
  expect(await readRecorded(files, parse)).toEqual({ kind: 'none' });
});

it('clears only while the files still name the pid', async () => {
  await writeRecorded(files, { pid: 43, url: 'http://x' });
  await clearRecorded(files, 42);
  expect((await readRecorded(files, parse)).kind).toBe('recorded');
  await clearRecorded(files, 43);
  expect(await readRecorded(files, parse)).toEqual({ kind: 'none' });
  await expect(readFile(files.stateFile, 'utf8')).rejects.toThrow(/ENOENT/);
});
