/** Reads V8 .cpuprofile files (node --cpu-prof) and lists the functions with the most self time. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface SelfTime {
  fn: string;
  ms: number;
  share: number;
}

export interface ThreadProfile {
  file: string;
  totalMs: number;
  busyMs: number;
  top: SelfTime[];
}

const IDLE = new Set(['(idle)', '(program)']);

export function summarize(file: string, count: number): ThreadProfile {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byNode = new Map<number, number>();
  p.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  const byFn = new Map<string, number>();
  let totalMs = 0;
  let idleMs = 0;
  for (const node of p.nodes) {
    const ms = byNode.get(node.id) ?? 0;
    const { functionName, url, lineNumber } = node.callFrame;
    const name = functionName || '(anonymous)';
    totalMs += ms;
    if (IDLE.has(name)) idleMs += ms;
    const where = url ? ` ${url.replace(/^file:\/\//, '').split('/').slice(-2).join('/')}:${lineNumber + 1}` : '';
    byFn.set(name + where, (byFn.get(name + where) ?? 0) + ms);
  }
  const top = [...byFn].sort((a, b) => b[1] - a[1]).slice(0, count).map(([fn, ms]) => ({ fn, ms, share: ms / totalMs }));
  return { file, totalMs, busyMs: totalMs - idleMs, top };
}

export function summarizeDir(dir: string, count: number): ThreadProfile[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.cpuprofile'))
    .map((f) => summarize(join(dir, f), count))
    .sort((a, b) => b.busyMs - a.busyMs);
}

/** Self time of the functions whose source file `where` picks, against the thread's busy time (all but idle), in ms. */
export function selfTimeWhere(file: string, where: (url: string) => boolean): { ms: number; busyMs: number } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byNode = new Map<number, number>();
  p.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (p.timeDeltas[i] ?? 0) / 1000));
  let ms = 0;
  let busyMs = 0;
  for (const node of p.nodes) {
    const spent = byNode.get(node.id) ?? 0;
    if (IDLE.has(node.callFrame.functionName)) continue;
    busyMs += spent;
    if (where(node.callFrame.url)) ms += spent;
  }
  return { ms, busyMs };
}
