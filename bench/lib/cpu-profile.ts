/** Reads V8 .cpuprofile files (node --cpu-prof) and lists the functions with the most self time. */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
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

/**
 * Time spent in the functions whose source file `where` picks and in all they call (builtins, other
 * modules): a sample counts if any frame of its stack is picked. Against the thread's busy time (all
 * but idle), in ms.
 */
export function timeUnder(file: string, where: (url: string) => boolean): { ms: number; busyMs: number } {
  const p = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const parent = new Map<number, number>();
  for (const node of p.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const under = new Map<number, boolean>();
  const isUnder = (id: number): boolean => {
    let known = under.get(id);
    if (known === undefined) {
      const node = byId.get(id)!;
      const up = parent.get(id);
      known = where(node.callFrame.url) || (up !== undefined && isUnder(up));
      under.set(id, known);
    }
    return known;
  };
  let ms = 0;
  let busyMs = 0;
  p.samples.forEach((id, i) => {
    const spent = (p.timeDeltas[i] ?? 0) / 1000;
    if (IDLE.has(byId.get(id)!.callFrame.functionName)) return;
    busyMs += spent;
    if (isUnder(id)) ms += spent;
  });
  return { ms, busyMs };
}
