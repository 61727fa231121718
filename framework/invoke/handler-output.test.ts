/**
 * What a handler prints reaches the `npm start` terminal escaped, its colours kept: a handler's
 * line may quote a record (a JSON.parse error quotes its input), and an OSC 52 clipboard write or
 * a line erase in it reached the terminal (issue 40's review).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, it, vi } from 'vitest';
import { HandlerWorker } from './handler-worker.ts';

it('escapes the terminal controls in what a handler prints, but not its colours', async () => {
  const bundle = join(mkdtempSync(join(tmpdir(), 'sluice-output-')), 'bundle.mjs');
  writeFileSync(bundle, `process.stdout.write('value: \\x1b]52;c;ZXZpbA==\\x07 \\x1b[2K \\x1b[31mred\\x1b[0m\\n');`);
  const lines: string[] = [];
  const w = new HandlerWorker({ functionName: 'f', lambdaName: 'x-f', bundle, memorySizeMb: 128, region: 'us-east-1', env: {} } as never, (l) => lines.push(l));
  try {
    await w.ready.catch(() => undefined);
    await vi.waitFor(() => expect(lines.some((l) => l.includes('value:'))).toBe(true), { timeout: 10_000 });
    expect(lines.find((l) => l.includes('value:'))).toBe('[f] value: \\x1b]52;c;ZXZpbA==\\x07 \\x1b[2K \x1b[31mred\x1b[0m');
  } finally {
    await w.terminate();
  }
});
