/**
 * Sluice runs kafkajs 2.2.4 with a small patch (infra/patches/kafkajs.mjs): its record decoder
 * (headers in linear time without Object.prototype's names, an unreadable batch as a placeholder
 * instead of a crashed fetch, a fetch response's records, decompressed bytes and headers bounded
 * before they are built), its runner (a stopping consumer does not rejoin its group) and its
 * fetch manager (no fetchers built after a stop, which spun for ever) and its producer (a send's
 * messages grouped by partition in linear time, not quadratic). npm applies it at install; an install that skipped scripts
 * (`--ignore-scripts`) has kafkajs unpatched, and one header named `constructor` would stop a
 * trigger for good. A poller starting on such an install patches it (the same script, idempotent)
 * and stops, asking to be started again; when it cannot patch it, it names the command that does.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SluiceError } from '../../errors.ts';

/** What infra/patches/kafkajs.mjs writes into each file it patches (its test checks both agree). */
export const PATCH_MARKERS: Readonly<Record<string, string>> = {
  'src/protocol/recordBatch/record/v0/decoder.js': 'sluice-patch v3',
  'src/protocol/recordBatch/v0/decoder.js': 'sluice-patch v3',
  'src/protocol/requests/fetch/v4/decodeMessages.js': 'sluice-patch v3',
  'src/consumer/batch.js': 'sluice-patch v3',
  'src/consumer/runner.js': 'sluice-patch v1',
  'src/consumer/fetchManager.js': 'sluice-patch v1',
  'src/producer/groupMessagesPerPartition.js': 'sluice-patch v1',
};

let checked = false;

/** Throws PREREQUISITE_MISSING when the kafkajs this process loads is not patched and cannot be patched now; checks once. */
export function assertKafkajsPatched(): void {
  if (checked) return;
  ensureKafkajsPatched(dirname(createRequire(import.meta.url).resolve('kafkajs/package.json')), patchScript());
  checked = true;
}

/**
 * Patches kafkajs at `dir` when it is not (an install that skipped scripts: `--ignore-scripts`, or
 * npm's allowScripts not covering Sluice's postinstall), by running `script`, the patch npm runs at
 * install; the patch is idempotent. Throws PREREQUISITE_MISSING, naming the command, when it
 * cannot (node_modules read-only, a kafkajs of another version). Patched, it throws too, asking
 * for a restart: kafkajs's modules are loaded before this check runs (a review proved its runner
 * and fetch manager in the module cache), so this process would run them unpatched.
 */
export function ensureKafkajsPatched(dir: string, script: string | undefined): void {
  const missingIn = () => Object.entries(PATCH_MARKERS).filter(([f, marker]) => !readFileSync(join(dir, f), 'utf8').includes(marker)).map(([f]) => f);
  let missing = missingIn();
  if (missing.length === 0) return;
  let why = '';
  if (script && existsSync(script)) {
    const run = spawnSync(process.execPath, [script], { encoding: 'utf8', timeout: 60_000 });
    why = (run.stderr || run.error?.message || '').trim().split('\n').pop() ?? '';
    missing = missingIn();
    if (missing.length === 0) {
      // This process has loaded kafkajs's consumer modules already (its patched runner and fetch
      // manager among them), so it would run them unpatched: the next start runs them patched.
      throw new SluiceError(
        'PREREQUISITE_MISSING',
        `kafkajs at ${dir} was not patched for Sluice (an install that skipped scripts: --ignore-scripts, or npm's allowScripts): it is patched now, ` +
          'and this process had loaded parts of it unpatched already, so it stops here. Start it again.',
      );
    }
  }
  throw new SluiceError(
    'PREREQUISITE_MISSING',
    `kafkajs at ${dir} is not patched for Sluice (${missing.join(', ')})${why ? ` and patching it failed (${why})` : ''}, so a hostile record could stop a trigger, and a stop could wait for the chunks of other members or hang. ` +
      'npm applies the patch at install; after an install with --ignore-scripts run `node node_modules/serverless-sluice/infra/patches/kafkajs.mjs` ' +
      '(in the Sluice repository: `node infra/patches/kafkajs.mjs`).',
  );
}

/** The patch script of the installed serverless-sluice (or of this repository), if found. */
function patchScript(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('serverless-sluice/package.json')), 'infra', 'patches', 'kafkajs.mjs');
  } catch {
    return undefined;
  }
}
