/**
 * The suite's Python tools come from its own environment, not the system's: the interpreter
 * tests use lives in .sluice/venv and imports every pinned tool, whatever the system python3
 * has (printed). A scratch environment shows the rules: built once, reused while the pins are
 * unchanged, rebuilt when one changes, and a pin that cannot be installed is named.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { DEFAULT_VENV, ensureVenv } from '../../infra/python/venv.ts';
import { python } from '../support/python.ts';

const TOOLS = ['moto', 'cfnlint', 'confluent_kafka', 'prometheus_client'];
const imports = (interpreter: string, module: string) => spawnSync(interpreter, ['-c', `import ${module}`]).status === 0;

describe("the suite's Python environment", () => {
  it('is .sluice/venv and imports every pinned tool, whatever the system python3 has', () => {
    console.log(`[python-env] system python3 imports: ${TOOLS.map((m) => `${m} ${imports('python3', m) ? 'yes' : 'no'}`).join(', ')} (the suite uses ${python()})`);
    expect(python().startsWith(DEFAULT_VENV + sep)).toBe(true);
    for (const m of TOOLS) expect(imports(python(), m), m).toBe(true);
  });

  it('is built once, reused while the pins hold, rebuilt when one changes; a pin that cannot install is named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sluice-venv-'));
    const requirements = join(dir, 'requirements.txt');
    const venv = { dir: join(dir, 'venv'), requirements, log: (l: string) => console.log(`[python-env] ${l}`) };
    const version = (p: string) => spawnSync(p, ['-c', 'import six; print(six.__version__)'], { encoding: 'utf8' }).stdout.trim();

    writeFileSync(requirements, 'six==1.16.0\n');
    const first = await ensureVenv(venv);
    expect(first.built).toBe(true);
    expect(version(first.python)).toBe('1.16.0');
    expect((await ensureVenv(venv)).built).toBe(false);

    writeFileSync(requirements, 'six==1.17.0\n');
    const changed = await ensureVenv(venv);
    expect(changed.built).toBe(true);
    expect(version(changed.python)).toBe('1.17.0');

    writeFileSync(requirements, 'six==0.0.999\n');
    await expect(ensureVenv(venv)).rejects.toThrow(/installing the suite's Python tools failed \(package six==0\.0\.999\)/);
  });
});
