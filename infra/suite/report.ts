/**
 * What `npm test` prints at the end and keeps in .sluice/suite/: each tier's wall time and test
 * counts, and every file's time, read from vitest's JSON reports. Pure.
 */

/** The parts of vitest's JSON report this reads. */
export interface VitestJson {
  numTotalTests: number;
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  testResults: Array<{ name: string; startTime: number; endTime: number; status: string; assertionResults: Array<{ status: string }> }>;
}

export interface FileTime {
  tier: string;
  /** Relative to the repository. */
  file: string;
  ms: number;
  tests: number;
  failed: number;
}

export interface TierResult {
  tier: string;
  lane: string;
  ok: boolean;
  /** The tier's wall time: from its process's start to its exit. */
  ms: number;
  passed: number;
  failed: number;
  skipped: number;
  files: number;
  /** Why it failed when no report says (it did not start, or died before its report). */
  problem?: string;
}

export function fileTimes(tier: string, report: VitestJson, root: string): FileTime[] {
  return report.testResults.map((r) => ({
    tier,
    file: r.name.startsWith(`${root}/`) ? r.name.slice(root.length + 1) : r.name,
    ms: Math.round(r.endTime - r.startTime),
    tests: r.assertionResults.length,
    failed: r.assertionResults.filter((a) => a.status === 'failed').length,
  }));
}

/** Counts of one or more reports of a tier (test:node-versions writes one per Node.js version). */
export function counts(reports: VitestJson[]): Pick<TierResult, 'passed' | 'failed' | 'skipped' | 'files'> {
  return {
    passed: sum(reports.map((r) => r.numPassedTests)),
    failed: sum(reports.map((r) => r.numFailedTests)),
    skipped: sum(reports.map((r) => r.numPendingTests + r.numTodoTests)),
    files: sum(reports.map((r) => r.testResults.length)),
  };
}

/** The per-tier table, then the wall time of the whole run against its budget. */
export function tierTable(results: TierResult[], wallMs: number, budgetMs: number): string {
  const rows = results.map((r) => [r.lane, r.tier, minutes(r.ms), String(r.files), String(r.passed), String(r.failed), String(r.skipped), r.ok ? 'ok' : `FAILED${r.problem ? `: ${r.problem}` : ''}`]);
  const lines = table(['lane', 'tier', 'min', 'files', 'passed', 'failed', 'skipped', ''], rows);
  const total = counts([]);
  for (const r of results) {
    total.passed += r.passed;
    total.failed += r.failed;
    total.skipped += r.skipped;
  }
  lines.push(`whole run ${minutes(wallMs)} min (budget ${minutes(budgetMs)}): ${total.passed} passed, ${total.failed} failed, ${total.skipped} skipped`);
  return lines.join('\n');
}

/** The slowest files, longest first: the tenth (at least `atLeast`) that the budget is spent on. */
export function slowest(files: FileTime[], atLeast = 10): FileTime[] {
  const n = Math.max(atLeast, Math.ceil(files.length / 10));
  return [...files].sort((a, b) => b.ms - a.ms).slice(0, n);
}

export function fileTable(files: FileTime[]): string {
  return table(['tier', 'file', 's', 'tests'], files.map((f) => [f.tier, f.file, (f.ms / 1000).toFixed(1), String(f.tests)])).join('\n');
}

export function minutes(ms: number): string {
  return (ms / 60_000).toFixed(1);
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

function table(head: string[], rows: string[][]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ').trimEnd();
  return [line(head), ...rows.map(line)];
}
