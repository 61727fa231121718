import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleHandler } from './bundle.ts';

describe('bundleHandler', () => {
  const root = mkdtempSync(join(tmpdir(), 'sluice-bundle-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('never shows a half-written bundle to a reader while other pollers of the service bundle the same function', async () => {
    // A few MB of source, so a bundle takes many writes to land.
    const big = Array.from({ length: 6_000 }, (_, i) => `  "k${i}": "${'x'.repeat(60)}",`).join('\n');
    writeFileSync(join(root, 'handler.ts'), `const table = {\n${big}\n};\nexport const handler = async () => Object.keys(table).length;\n`);
    const location = { file: join(root, 'handler.ts'), exportName: 'handler' };
    const { file: outfile } = await bundleHandler(root, 'orders', location);

    let building = true;
    const torn: number[] = [];
    let reads = 0;
    const reader = (async () => {
      while (building) {
        try {
          const text = readFileSync(outfile, 'utf8');
          reads += 1;
          if (!text.includes('//# sourceMappingURL=data:')) torn.push(text.length);
        } catch {
          // not there yet
        }
        await new Promise((r) => setImmediate(r));
      }
    })();
    for (let round = 0; round < 2; round += 1) {
      await Promise.all(Array.from({ length: 4 }, () => bundleHandler(root, 'orders', location)));
    }
    building = false;
    await reader;

    expect(torn, `${torn.length} of ${reads} reads saw a partial bundle`).toEqual([]);
    expect(readdirSync(join(root, '.sluice', 'build'))).toEqual([basename(outfile)]);
  }, 60_000); // a hang guard: the unit tier shares the cores with the other lanes of npm test

  it('gives one function name with two different handlers two bundles (two pollers of one directory)', async () => {
    writeFileSync(join(root, 'a.ts'), 'export const handler = async () => "a";\n');
    writeFileSync(join(root, 'b.ts'), 'export const handler = async () => "b";\n');
    const [a, b] = await Promise.all([
      bundleHandler(root, 'recorder', { file: join(root, 'a.ts'), exportName: 'handler' }),
      bundleHandler(root, 'recorder', { file: join(root, 'b.ts'), exportName: 'handler' }),
    ]);
    expect(a.file).not.toBe(b.file);
    expect(readFileSync(a.file, 'utf8')).toContain('"a"');
    expect(readFileSync(b.file, 'utf8')).toContain('"b"');
  });
});
