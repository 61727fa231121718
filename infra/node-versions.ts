/**
 * `npm run test:node-versions` (part of `npm test`): the unit tier and the installed-package
 * end-to-end test (vitest's `installed` project) again on Node.js 22 and 24, the versions users'
 * machines, the poller's image and the Lambda runtimes run, beside the machine's own Node.js that
 * runs the rest of the suite. Each version comes from npm's `node` package, installed once per
 * user into ~/.cache/sluice (./npm-tools.ts). One broker serves both runs (KAFKA_BROKERS, else the
 * suite's test broker, started here and stopped after), and the package is packed once
 * (SLUICE_TARBALL). Prints one line per version and exits non-zero if either failed.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { testBroker } from '../tests/support/services.ts';
import { ensureNode, nodeVersionsUnderTest } from './npm-tools.ts';
import { packRepository } from './pack.ts';

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');
const MAJORS = nodeVersionsUnderTest();
const VITEST = path.join(ROOT, 'node_modules', 'vitest', 'vitest.mjs');

async function main(): Promise<number> {
  const started = Date.now();
  const nodes = MAJORS.map((major) => ({ major, binary: ensureNode(major) }));

  let brokers = process.env['KAFKA_BROKERS']?.trim();
  let stopBroker = async () => {};
  if (!brokers) {
    const broker = await testBroker((l) => console.log(`[kafka] ${l}`));
    brokers = broker.bootstrap;
    if (broker.startedHere) stopBroker = () => broker.stop();
  }

  const packDir = mkdtempSync(path.join(tmpdir(), 'sluice-node-versions-'));
  const results: string[] = [];
  let failed = false;
  try {
    // npm test packs once for every tier (infra/suite/run.ts).
    const tarball = process.env['SLUICE_TARBALL'] || packRepository(packDir, { build: true });

    for (const { major, binary } of nodes) {
      const version = spawnSync(binary, ['--version'], { encoding: 'utf8' }).stdout.trim();
      console.log(`\n== Node.js ${version}: unit tier and installed-package test (${binary})`);
      const t = Date.now();
      const reportDir = process.env['SLUICE_SUITE_REPORT_DIR']; // npm test counts the tests from vitest's JSON report
      const reporters = reportDir ? ['--reporter=default', '--reporter=json', `--outputFile.json=${path.join(reportDir, `node-versions-node${major}.json`)}`] : [];
      const run = spawnSync(binary, [VITEST, 'run', '--project', 'unit', '--project', 'installed', ...reporters], {
        cwd: ROOT,
        stdio: 'inherit',
        env: { ...process.env, KAFKA_BROKERS: brokers, SLUICE_TARBALL: tarball },
      });
      const ok = run.status === 0;
      failed ||= !ok;
      results.push(`Node.js ${version} (${major}): unit tier and installed-package test ${ok ? 'passed' : `FAILED (${run.error?.message ?? `exit ${run.status}`})`} in ${((Date.now() - t) / 1000).toFixed(0)} s`);
    }
  } finally {
    rmSync(packDir, { recursive: true, force: true });
    await stopBroker();
  }
  console.log(`\n== test:node-versions (${((Date.now() - started) / 1000).toFixed(0)} s)\n${results.join('\n')}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`test:node-versions: ${e instanceof Error ? e.message : String(e)}`);
    process.exit(1);
  },
);
