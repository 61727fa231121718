/**
 * Global setup of the tiers that install the package as a user does (tests/e2e/installed-package):
 * the tarball, packed once before any file runs. Packing runs `prepare` (the build), which
 * replaces dist/: done by a test file, it would pull dist/ from under the files running beside it.
 * `npm test` packs once for every tier and names it in SLUICE_TARBALL (infra/suite/run.ts); then
 * nothing is packed here. Tests read the path with `inject('tarball')`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { packRepository } from '../../infra/pack.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    tarball: string;
  }
}

export default function setup(project: TestProject): () => void {
  const given = process.env['SLUICE_TARBALL']?.trim();
  if (given) {
    project.provide('tarball', given);
    return () => {};
  }
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tarball-'));
  const started = Date.now();
  const tarball = packRepository(dir, { build: true });
  console.log(`[tarball] packed ${tarball} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('tarball', tarball);
  return () => rmSync(dir, { recursive: true, force: true });
}
