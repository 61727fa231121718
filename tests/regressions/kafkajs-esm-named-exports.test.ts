/**
 * What broke: `import { ConfigResourceTypes } from 'kafkajs'` passed every vitest test (vitest
 * interops CommonJS its own way) but crashed `npm start` under Node's ESM loader, which cannot
 * see that export. Every module is now loaded the way the CLI loads it: a plain Node process.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO, runCli } from '../support/cli.ts';

const modules = (dir: string): string[] =>
  readdirSync(join(REPO, dir), { withFileTypes: true }).flatMap((e) => {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory()) return e.name === 'cli' ? [] : modules(path);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && e.name !== 'worker-runtime.ts' ? [path] : [];
  });

describe('regression: kafkajs named exports under plain Node ESM', () => {
  it('loads every framework module in a plain Node process', async () => {
    const files = modules('framework');
    const loader = runCli('tests/support/import-all.ts', files.map((f) => join(REPO, f)));
    const code = await loader.exited;
    expect(loader.output()).toBe('');
    expect(code).toBe(0);
    expect(files.length).toBeGreaterThan(20);
  });
});
