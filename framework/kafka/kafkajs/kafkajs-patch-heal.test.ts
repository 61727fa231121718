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

/** A patch script that writes every marker into the files of `dir` (the real one patches the kafkajs it resolves from where it lies), or fails. */
function script(dir: string, fails = false): string {
  const file = path.join(dir, 'patch.mjs');
  const writes = Object.entries(PATCH_MARKERS).map(([f, m]) => `appendFileSync(${JSON.stringify(path.join(dir, f))}, ${JSON.stringify(`// ${m}\n`)});`).join('\n');
  writeFileSync(file, fails ? "console.error('sluice: EACCES: permission denied, open src/consumer/runner.js'); process.exit(1);\n" : `import { appendFileSync } from 'node:fs';\n${writes}\n`);
  return file;
}

describe('a kafkajs left unpatched', () => {
  it('is patched with the install\'s script, and the process stops asking for a start again (its kafkajs modules were loaded unpatched)', () => {
    const dir = unpatchedKafkajs();
    expect(() => ensureKafkajsPatched(dir, script(dir))).toThrow(/was not patched for Sluice .*: it is patched now, and this process had loaded parts of it unpatched already, so it stops here\. Start it again\./);
    expect(readFileSync(path.join(dir, 'src/consumer/runner.js'), 'utf8')).toContain(PATCH_MARKERS['src/consumer/runner.js']);
    // The next start finds it patched.
    expect(() => ensureKafkajsPatched(dir, script(dir))).not.toThrow();
  });

  it('refuses to start when the patch cannot be applied, with why and the command to run', () => {
    const dir = unpatchedKafkajs();
    expect(() => ensureKafkajsPatched(dir, script(dir, true))).toThrow(/is not patched for Sluice \(.*\) and patching it failed \(sluice: EACCES: permission denied, open src\/consumer\/runner\.js\).*node node_modules\/serverless-sluice\/infra\/patches\/kafkajs\.mjs/);
  });
});
