/**
 * Sluice's patch of the librdkafka engine's binding (infra/patches/librdkafka.mjs): applied to the
 * sources as 1.10.1 ships them (the installed ones with each edit undone), it makes each edit once
 * and gives back what the install built; applied twice it changes nothing; and it refuses a file it
 * does not know, or one patched by another version, instead of patching it half.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { bindingPatch, PATCH_MARKER } from './patched.ts';
import { applyEdits, EDITS, MARKER } from '../../../infra/patches/librdkafka.mjs';

const installed = dirname(createRequire(import.meta.url).resolve('@confluentinc/kafka-javascript/package.json'));
const files = [...new Set(EDITS.map((e) => e.file))];
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => rmSync(d, { recursive: true, force: true })));

/** The installed sources with every edit undone: what the package ships. */
function shipped(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-rdkafka-patch-'));
  dirs.push(dir);
  for (const file of files) {
    let text = readFileSync(join(installed, file), 'utf8');
    for (const e of EDITS.filter((x) => x.file === file)) text = text.replace(e.after, e.before);
    mkdirSync(dirname(join(dir, file)), { recursive: true });
    writeFileSync(join(dir, file), text);
  }
  return dir;
}

describe("Sluice's patch of @confluentinc/kafka-javascript", () => {
  it('is the version the member looks for in the stamp', () => expect(MARKER).toBe(PATCH_MARKER));

  it('applied to the sources as shipped, makes every edit once; a second time it changes nothing', () => {
    const dir = shipped();
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(MARKER);
    expect(applyEdits(dir)).toHaveLength(files.length);
    for (const e of EDITS) {
      const text = readFileSync(join(dir, e.file), 'utf8');
      expect(text.split(e.after)).toHaveLength(2);
    }
    expect(applyEdits(dir)).toEqual([]);
  });

  // A prebuilt binding has nothing built to compare with (tests/setup/engine-binding.ts stops the engines tiers on one).
  it.skipIf(!bindingPatch('@confluentinc/kafka-javascript').patched)('gives what the install built, when the binding was built from source', () => {
    const dir = shipped();
    applyEdits(dir);
    for (const file of files) expect(readFileSync(join(dir, file), 'utf8')).toBe(readFileSync(join(installed, file), 'utf8'));
  });

  it('refuses a source it does not know, and one patched by another version, naming the file', () => {
    const dir = shipped();
    writeFileSync(join(dir, 'src/workers.cc'), readFileSync(join(dir, 'src/workers.cc'), 'utf8').replace('m_consumer->Consume(timeout_ms);', 'm_consumer->Consume(timeout_ms );'));
    expect(() => applyEdits(dir)).toThrow(/src\/workers.cc is not as 1.10.1 ships it/);
    const other = shipped();
    writeFileSync(join(other, 'src/common.cc'), `// ${MARKER}\n${readFileSync(join(other, 'src/common.cc'), 'utf8')}`);
    expect(() => applyEdits(other)).toThrow(/src\/common.cc carries another version of Sluice's patch/);
  });
});
