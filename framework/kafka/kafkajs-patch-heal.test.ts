/**
 * A poller starting on a kafkajs an install left unpatched (scripts skipped) patches it with the
 * script npm runs at install, and refuses only when that fails. A stand-in kafkajs and script
 * here; the real patch is tested in kafkajs-patch.test.ts and applied by every install.
 */
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ensureKafkajsPatched, PATCH_MARKERS } from './kafkajs-patch.ts';

function unpatchedKafkajs(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'sluice-kafkajs-'));
  for (const f of Object.keys(PATCH_MARKERS)) {
    mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    writeFileSync(path.join(dir, f), '// kafkajs as published\n');
  }
  return dir;
}

/** A patch script that writes every marker into the files of the directory it runs in (its cwd), or fails. */
function script(dir: string, fails = false): string {
  const file = path.join(dir, 'patch.mjs');
  const writes = Object.entries(PATCH_MARKERS).map(([f, m]) => `appendFileSync(${JSON.stringify(f)}, ${JSON.stringify(`// ${m}\n`)});`).join('\n');
  writeFileSync(file, fails ? "console.error('sluice: EACCES: permission denied, open src/consumer/runner.js'); process.exit(1);\n" : `import { appendFileSync } from 'node:fs';\n${writes}\n`);
  return file;
}

describe('a kafkajs left unpatched', () => {
  it('is patched at start with the install\'s script, and says so once', () => {
    const dir = unpatchedKafkajs();
    const said: string[] = [];
    ensureKafkajsPatched(dir, script(dir), (l) => said.push(l));
    expect(said).toEqual([`sluice: kafkajs at ${dir} was not patched (an install that skipped scripts): patched it now`]);
    expect(readFileSync(path.join(dir, 'src/consumer/runner.js'), 'utf8')).toContain(PATCH_MARKERS['src/consumer/runner.js']);
    ensureKafkajsPatched(dir, script(dir), (l) => said.push(l));
    expect(said).toHaveLength(1);
  });

  it('refuses to start when the patch cannot be applied, with why and the command to run', () => {
    const dir = unpatchedKafkajs();
    expect(() => ensureKafkajsPatched(dir, script(dir, true), () => undefined)).toThrow(/is not patched for Sluice \(.*\) and patching it failed \(sluice: EACCES: permission denied, open src\/consumer\/runner\.js\).*node node_modules\/serverless-sluice\/infra\/patches\/kafkajs\.mjs/);
  });
});
