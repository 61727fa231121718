/**
 * Sluice runs kafkajs 2.2.4 with a small patch (infra/patches/kafkajs.mjs): its record decoder
 * (headers in linear time without Object.prototype's names, an unreadable batch as a placeholder
 * instead of a crashed fetch, a fetch response's records, decompressed bytes and headers bounded
 * before they are built), its runner (a stopping consumer does not rejoin its group) and its
 * fetch manager (no fetchers built after a stop, which spun for ever). npm applies it at install; an install that skipped scripts
 * (`--ignore-scripts`) has kafkajs unpatched, and one header named `constructor` would stop a
 * trigger for good. A poller refuses to start on such an install, naming the command that fixes it.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { SluiceError } from '../errors.ts';

/** What infra/patches/kafkajs.mjs writes into each file it patches (its test checks both agree). */
export const PATCH_MARKERS: Readonly<Record<string, string>> = {
  'src/protocol/recordBatch/record/v0/decoder.js': 'sluice-patch v3',
  'src/protocol/recordBatch/v0/decoder.js': 'sluice-patch v3',
  'src/protocol/requests/fetch/v4/decodeMessages.js': 'sluice-patch v3',
  'src/consumer/batch.js': 'sluice-patch v3',
  'src/consumer/runner.js': 'sluice-patch v1',
  'src/consumer/fetchManager.js': 'sluice-patch v1',
};

let checked = false;

/** Throws PREREQUISITE_MISSING when the kafkajs this process loads is not patched; checks once. */
export function assertKafkajsPatched(): void {
  if (checked) return;
  const dir = dirname(createRequire(import.meta.url).resolve('kafkajs/package.json'));
  const missing = Object.entries(PATCH_MARKERS).filter(([f, marker]) => !readFileSync(join(dir, f), 'utf8').includes(marker)).map(([f]) => f);
  if (missing.length > 0) {
    throw new SluiceError(
      'PREREQUISITE_MISSING',
      `kafkajs at ${dir} is not patched for Sluice (${missing.join(', ')}), so a hostile record could stop a trigger, and a stop could wait for the chunks of other members or hang. ` +
        'npm applies the patch at install; after an install with --ignore-scripts run `node node_modules/serverless-sluice/infra/patches/kafkajs.mjs` ' +
        '(in the Sluice repository: `node infra/patches/kafkajs.mjs`).',
    );
  }
  checked = true;
}
