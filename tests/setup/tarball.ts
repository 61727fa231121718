/**
 * Global setup of the tiers that install the package as a user does (tests/e2e/installed-package):
 * the tarball, packed once before any file runs. Packing runs `prepare` (the build), which
 * replaces dist/: done by a test file, it would pull dist/ from under the files running beside it.
 * `npm test` packs once for every tier and names it in SLUICE_TARBALL (infra/suite/run.ts); then
 * nothing is packed here. Tests read the path with `inject('tarball')`.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    tarball: string;
  }
}

const REPO = fileURLToPath(new URL('../..', import.meta.url));

export default function setup(project: TestProject): () => void {
  const given = process.env['SLUICE_TARBALL']?.trim();
  if (given) {
    project.provide('tarball', given);
    return () => {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tarball-'));
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const started = Date.now();
  const r = spawnSync(npm, ['pack', '--json', '--pack-destination', dir], { cwd: REPO, encoding: 'utf8', shell: process.platform === 'win32' });
  if (r.status !== 0) throw new Error(`npm pack failed (exit ${r.status}):\n${r.stdout}${r.stderr}`);
  const tarball = join(dir, (JSON.parse(r.stdout) as Array<{ filename: string }>)[0]!.filename);
  console.log(`[tarball] packed ${tarball} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('tarball', tarball);
  return () => rmSync(dir, { recursive: true, force: true });
}
