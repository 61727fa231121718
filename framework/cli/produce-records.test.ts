import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recordsToSend } from './produce-records.ts';

const lines = (...l: string[]) => {
  const file = join(mkdtempSync(join(tmpdir(), 'sluice-produce-')), 'records.jsonl');
  writeFileSync(file, l.join('\n'));
  return file;
};

describe('recordsToSend', () => {
  it('applies --key and --header to JSON lines too (they were dropped for --file and stdin); a line keeps its own key', async () => {
    const file = lines('{"id":13}', '{"key":"own","value":{"id":14},"headers":{"h":"line"}}');
    const records = await recordsToSend({ key: 'order-13', headers: ['source=cli'], values: [], file }, 'nothing', () => undefined);
    expect(records.map((r) => [r.key === null || r.key === undefined ? null : String(r.key), (r.headers ?? []).map(([n, v]) => `${n}=${String(v)}`)])).toEqual([
      ['order-13', ['source=cli']],
      ['own', ['source=cli', 'h=line']],
    ]);
  });

  it('without --key, a line without a key has none', async () => {
    const [r] = await recordsToSend({ values: [], file: lines('{"id":1}') }, 'nothing', () => undefined);
    expect(r!.key ?? null).toBeNull();
  });
});
