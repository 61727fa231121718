import { describe, expect, it } from 'vitest';
import { counts, fileTimes, slowest, tierTable, type VitestJson } from './report.ts';

const report = (files: Array<[string, number, string[]]>, skipped = 0): VitestJson => ({
  numTotalTests: files.reduce((n, [, , s]) => n + s.length, 0) + skipped,
  numPassedTests: files.reduce((n, [, , s]) => n + s.filter((x) => x === 'passed').length, 0),
  numFailedTests: files.reduce((n, [, , s]) => n + s.filter((x) => x === 'failed').length, 0),
  numPendingTests: skipped,
  numTodoTests: 0,
  testResults: files.map(([name, ms, statuses]) => ({ name, startTime: 1_000, endTime: 1_000 + ms, status: 'passed', assertionResults: statuses.map((status) => ({ status })) })),
});

describe('the suite report', () => {
  it("reads each file's time and tests, relative to the repository", () => {
    const r = report([['/repo/tests/a.test.ts', 1_234.4, ['passed', 'failed']]]);
    expect(fileTimes('integration', r, '/repo')).toEqual([{ tier: 'integration', file: 'tests/a.test.ts', ms: 1_234, tests: 2, failed: 1 }]);
  });

  it('adds up the reports of one tier (one per Node.js version)', () => {
    const a = report([['/r/x.test.ts', 10, ['passed', 'passed']]], 1);
    const b = report([['/r/x.test.ts', 10, ['passed', 'failed']], ['/r/y.test.ts', 5, ['passed']]]);
    expect(counts([a, b])).toEqual({ passed: 4, failed: 1, skipped: 1, files: 3 });
  });

  it('names the slowest tenth, at least ten', () => {
    const files = Array.from({ length: 150 }, (_, i) => ({ tier: 't', file: `f${i}`, ms: i, tests: 1, failed: 0 }));
    expect(slowest(files).map((f) => f.ms)).toEqual([149, 148, 147, 146, 145, 144, 143, 142, 141, 140, 139, 138, 137, 136, 135]);
    expect(slowest(files.slice(0, 20))).toHaveLength(10);
  });

  it('prints a row a tier and the whole run against its budget', () => {
    const text = tierTable(
      [
        { tier: 'integration', lane: 'kafkajs', ok: true, ms: 9 * 60_000, passed: 700, failed: 0, skipped: 3, files: 120 },
        { tier: 'engines', lane: 'librdkafka', ok: false, ms: 6 * 60_000, passed: 300, failed: 2, skipped: 0, files: 40, problem: 'exit 1' },
      ],
      20 * 60_000,
      40 * 60_000,
    );
    expect(text.split('\n')).toEqual([
      'lane        tier         min  files  passed  failed  skipped',
      'kafkajs     integration  9.0  120    700     0       3        ok',
      'librdkafka  engines      6.0  40     300     2       0        FAILED: exit 1',
      'whole run 20.0 min (budget 40.0): 1000 passed, 2 failed, 3 skipped',
    ]);
  });
});
