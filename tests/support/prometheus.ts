/**
 * Reads `GET /metrics` the way Prometheus does: with the reference text-format parser (Python's
 * prometheus_client, from the suite's .sluice/venv), not a regex. Counter families are named
 * without `_total` by that parser, as by Prometheus; samples keep their full names.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { python } from './python.ts';

const PARSER = fileURLToPath(new URL('./prometheus_parse.py', import.meta.url));

export interface Family {
  name: string;
  type: 'counter' | 'gauge' | 'histogram' | 'summary' | 'unknown';
  samples: Array<{ name: string; labels: Record<string, string>; value: number }>;
}

export interface Scrape {
  families: Family[];
  /** Each sample named `name` whose labels include `where`. */
  samples(name: string, where?: Record<string, string>): Array<{ labels: Record<string, string>; value: number }>;
  sum(name: string, where?: Record<string, string>): number;
}

export async function scrape(baseUrl: string): Promise<Scrape> {
  const res = await fetch(`${baseUrl}/metrics`);
  if (res.status !== 200) throw new Error(`GET /metrics answered ${res.status}`);
  const parsed = spawnSync(python(), [PARSER], { input: await res.text(), encoding: 'utf8' });
  if (parsed.status !== 0) throw new Error(`the exposition does not parse: ${parsed.stderr.trim()}`);
  const families = JSON.parse(parsed.stdout) as Family[];
  const samples = (name: string, where: Record<string, string> = {}) => {
    const all = families.flatMap((f) => f.samples).filter((s) => s.name === name);
    if (all.length === 0 && !families.some((f) => name.startsWith(f.name))) throw new Error(`no metric ${name} in the exposition (have: ${families.map((f) => f.name).join(', ')})`);
    return all.filter((s) => Object.entries(where).every(([k, v]) => s.labels[k] === v));
  };
  return { families, samples, sum: (name, where) => samples(name, where).reduce((n, s) => n + s.value, 0) };
}
