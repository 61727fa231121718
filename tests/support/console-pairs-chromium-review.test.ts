/**
 * Review of bench/scenarios/console-pairs.ts (fba2a41): chromiumCpuMs, "Chromium's own CPU" of a
 * page pair, read from /proc. Stand-ins for Chromium: the system's shell under the name `chrome`
 * (what /proc shows as a process's name is its file's), spinning until killed. One started by
 * another process (here: a shell that leaves it running and exits), as a desktop browser or another
 * test's is, must not count; one under this process, as the bench's browser and its renderers are,
 * must.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { chromiumCpuMs, chromiumProcesses } from '../../bench/scenarios/console-pairs.ts';

const dir = mkdtempSync(join(tmpdir(), 'sluice-chromium-'));
const fake = join(dir, 'chrome');
// The system's shell under the name `chrome`, spinning: Node.js 24 names its main thread `node`
// (what /proc shows as a process's name), so a node under another name does not stay one.
symlinkSync('/bin/sh', fake);
const spin = "-c 'while :; do :; done'";
const started: number[] = [];
afterAll(() => {
  for (const pid of started) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone already
    }
  }
  rmSync(dir, { recursive: true, force: true });
});

/** CPU (ms) `pid` has used so far. */
const cpuOf = (pid: number): number => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
};
const untilCpu = async (pid: number, ms: number) => {
  while (cpuOf(pid) < ms) await new Promise((r) => setTimeout(r, 20));
};

describe("Chromium's CPU over a page pair's window", () => {
  it('leaves out a Chromium this process did not start', async () => {
    const out = spawnSync('sh', ['-c', `"${fake}" ${spin} </dev/null >/dev/null 2>&1 & echo $!`], { encoding: 'utf8' });
    const pid = Number(out.stdout.trim());
    started.push(pid);
    await untilCpu(pid, 100);
    const before = chromiumCpuMs();
    const itsBefore = cpuOf(pid);
    await untilCpu(pid, itsBefore + 200);
    expect(chromiumCpuMs() - before).toBe(0);
    expect(chromiumProcesses().map((p) => p.pid)).not.toContain(pid);
  }, 30_000);

  it("counts one under this process, also below a process of its own (as a browser's renderers are)", async () => {
    const shell = spawn('sh', ['-c', `"${fake}" ${spin}`], { stdio: 'ignore' });
    started.push(shell.pid!);
    let pid = 0;
    while (!pid) {
      const children = readFileSync(`/proc/${shell.pid}/task/${shell.pid}/children`, 'utf8').trim();
      pid = Number(children.split(' ')[0] || 0);
      if (!pid) await new Promise((r) => setTimeout(r, 20));
    }
    started.push(pid);
    await untilCpu(pid, 100);
    // Counted by which process it is (a bound on the CPU read would be a bound on a duration).
    expect(chromiumProcesses().map((p) => p.pid)).toContain(pid);
  }, 30_000);
});
