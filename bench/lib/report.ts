/** The run's report: machine facts, the table on stdout, results/<timestamp>.json and results/latest.json. */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, platform, release, totalmem } from 'node:os';
import { join } from 'node:path';
import { KAFKA_VERSION, REPO_ROOT } from './broker.ts';
import type { Figure } from './types.ts';

export const RESULTS_DIR = join(REPO_ROOT, 'bench', 'results');

export function machineFacts(): Record<string, unknown> {
  const kafkajs = JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', 'kafkajs', 'package.json'), 'utf8')) as { version: string };
  return {
    cores: cpus().length,
    cpuModel: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Number((totalmem() / 1024 ** 3).toFixed(1)),
    node: process.version,
    kafka: KAFKA_VERSION,
    kafkajs: kafkajs.version,
    os: `${platform()} ${release()}`,
    commit: gitCommit(),
  };
}

function gitCommit(): string {
  try {
    const head = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', 'framework', 'infra'], { cwd: REPO_ROOT, encoding: 'utf8' }).trim();
    return dirty ? `${head}+uncommitted framework/infra changes` : head;
  } catch {
    return 'unknown';
  }
}

const mark = (f: Figure) => (f.met === undefined ? '' : f.met ? 'yes' : 'NO');

/** A fixed-width table; also valid Markdown, so it can be pasted into the README as is. */
export function renderTable(figures: Figure[]): string {
  const rows = [['scenario', 'figure', 'value', 'target', 'met'], ...figures.map((f) => [f.scenario, f.figure, f.value, f.target ?? '', mark(f)])];
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => r[c]!.length)));
  const line = (r: string[]) => `| ${r.map((cell, c) => cell.padEnd(widths[c]!)).join(' | ')} |`;
  return [line(rows[0]!), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.slice(1).map(line)].join('\n');
}

export async function writeResults(results: Record<string, unknown>, startedAt: Date): Promise<string> {
  await mkdir(RESULTS_DIR, { recursive: true });
  const stamp = startedAt.toISOString().replace(/[:.]/g, '-');
  const file = join(RESULTS_DIR, `${stamp}.json`);
  const text = JSON.stringify(results, null, 2) + '\n';
  await writeFile(file, text);
  await writeFile(join(RESULTS_DIR, 'latest.json'), text);
  return file;
}
