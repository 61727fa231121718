import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { durationAssertions } from './duration-scan.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Every test file of the suite, and the test helpers of tests/ (a bound can hide in a helper). */
function suiteSources(): string[] {
  const walk = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
      const rel = `${dir}/${e.name}`;
      if (e.isDirectory()) return e.name === 'node_modules' || e.name === 'fixtures' ? [] : walk(rel);
      return e.name.endsWith('.ts') && (dir.startsWith('tests') || e.name.endsWith('.test.ts')) ? [rel] : [];
    });
  return ['tests', 'framework', 'infra'].flatMap(walk);
}

describe('the scan for duration assertions', () => {
  const scan = (source: string) => durationAssertions('x.test.ts', source).map((f) => f.line);

  it('finds a lower or upper bound on a measured time, on one line or several', () => {
    expect(scan('expect(e.durationMs).toBeGreaterThanOrEqual(1_500);')).toEqual([1]);
    expect(scan('x;\nexpect(tookMs).toBeLessThan(15_000);')).toEqual([2]);
    expect(scan('expect(run.blockedMs, "loop").toBeLessThan(HEARTBEAT_INTERVAL_MS);')).toEqual([1]);
    expect(scan('for (const s of starts) expect(s.at - s.fetchedAt + timeoutMs).toBeLessThanOrEqual(max);')).toEqual([1]);
    expect(scan('expect(\n  Date.now() - started,\n).not.toBeGreaterThan(5000);')).toEqual([1]);
    expect(scan('expect(elapsed < 3000).toBe(true);')).toEqual([1]);
    expect(scan('expect(stopSeconds).toBeCloseTo(2, 0);')).toEqual([1]);
    expect(scan('expect(slowest).toBeLessThan(50);')).toEqual([1]);
    expect(scan('expect(15_000).toBeGreaterThan(tookMs);')).toEqual([1]);
  });

  it('leaves counts, sizes and equalities alone', () => {
    expect(scan('expect(mechanisms.length).toBeGreaterThan(0);')).toEqual([]);
    expect(scan('expect(problems.length).toBeGreaterThanOrEqual(2);')).toEqual([]);
    expect(scan('expect(e.durationMs).toBe(1500);')).toEqual([]);
    expect(scan("expect(lines.at(-1)).toBeGreaterThan(3);")).toEqual([]);
    expect(scan("expect(items.filter((i) => i.kind === 'took').length).toBeLessThan(3);")).toEqual([]);
    expect(scan('expect(ends.map((e) => e.attempt)).toEqual([1, 2]);')).toEqual([]);
    expect(scan('expect(records.filter((r) => r.at > brokenAt).length).toBeGreaterThan(0);')).toEqual([]);
    expect(scan('// expect(tookMs).toBeLessThan(10_000);\nconst s = "expect(tookMs).toBeLessThan(1)";')).toEqual([]);
    expect(scan('// duration-scan: allowed, the SDK reports a non-negative duration\nexpect(result.durationMs).toBeGreaterThanOrEqual(0);')).toEqual([]);
    expect(scan('// duration-scan: allowed,\nexpect(result.durationMs).toBeGreaterThanOrEqual(0);')).toEqual([2]); // a reason is required
  });

  it('finds none in the suite: assert the outcome (the message, the attempt count, the commit), time in bench/', () => {
    const files = suiteSources();
    const findings = files.flatMap((f) => durationAssertions(f, readFileSync(path.join(ROOT, f), 'utf8')));
    console.log(`[duration-scan] ${files.length} files scanned, ${findings.length} duration assertions`);
    expect(findings.map((f) => `${f.file}:${f.line}: ${f.text}`)).toEqual([]);
    expect(files.length).toBeGreaterThan(150);
  });
});
