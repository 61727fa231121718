/**
 * The package as a user installs it: `npm pack` of the repository into `dir`, returning the
 * tarball's path. `build: false` skips prepare's build, for a caller that has just built dist/.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

export function packRepository(dir: string, o: { build: boolean }): string {
  const windows = process.platform === 'win32';
  const args = ['pack', '--json', ...(o.build ? [] : ['--ignore-scripts']), '--pack-destination', dir];
  const r = spawnSync(windows ? 'npm.cmd' : 'npm', args, { cwd: ROOT, encoding: 'utf8', shell: windows });
  if (r.status !== 0) throw new Error(`npm pack failed (${r.error?.message ?? `exit ${r.status}`}):\n${r.stdout}${r.stderr}`);
  return path.join(dir, (JSON.parse(r.stdout) as Array<{ filename: string }>)[0]!.filename);
}
