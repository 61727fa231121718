/**
 * Sluice's bounds inside the librdkafka engine's binding (infra/patches/librdkafka.mjs, applied at
 * install): handed over in the environment before the binding converts a first record, and read back
 * as the stamp the patch leaves beside the binary. Without the patch (a prebuilt binding, another
 * version) librdkafka inflates compressed batches without a bound and the binding builds every
 * header: the member runs, and says so once when it starts.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { INPUT_BOUNDS } from '../../config/input-bounds.ts';

/** What infra/patches/librdkafka.mjs writes into its stamp (librdkafka-patch.test.ts checks both agree). */
export const PATCH_MARKER = 'sluice-patch v3';

/**
 * The largest fetch response librdkafka accepts, and so the largest batch: librdkafka's maximum. A
 * batch past it (a topic whose max.message.bytes is larger) made librdkafka drop the connection and
 * fetch it again for ever; within it, the patched binding lets go of a record past the bounds.
 */
export const RECEIVE_MAX_BYTES = 2_147_483_647;
/** A fetch response's records (a partition's first batch may pass it: Kafka returns it whole). */
export const FETCH_MAX_BYTES = INPUT_BOUNDS.maxDecompressedBytes;

/** The patched binding's bounds: librdkafka reads the first as it decompresses a batch, the binding the others when it converts its first record. */
export function handBoundsToBinding(env: NodeJS.ProcessEnv = process.env): void {
  env.SLUICE_RDKAFKA_MAX_DECOMPRESSED_BYTES = String(INPUT_BOUNDS.maxDecompressedBytes);
  env.SLUICE_RDKAFKA_MAX_RECORD_BYTES = String(INPUT_BOUNDS.maxDecompressedBytes);
  env.SLUICE_RDKAFKA_MAX_HEADERS = String(INPUT_BOUNDS.maxHeaders);
  env.SLUICE_RDKAFKA_MAX_HEADER_BYTES = String(INPUT_BOUNDS.maxHeaderBytes);
}

export interface PatchState {
  patched: boolean;
  /** Why not, and what to do, when it is not. */
  why?: string;
}

/** Whether the installed binding carries Sluice's patch (its stamp beside the binary). */
export function bindingPatch(packageName: string): PatchState {
  let dir: string;
  try {
    dir = dirname(createRequire(import.meta.url).resolve(`${packageName}/package.json`));
  } catch {
    return { patched: false, why: `${packageName} is not installed` };
  }
  const stamp = join(dir, 'build/Release/sluice-patch.json');
  if (existsSync(stamp)) {
    try {
      const { patch } = JSON.parse(readFileSync(stamp, 'utf8')) as { patch?: string };
      if (patch === PATCH_MARKER) return { patched: true };
    } catch {
      // an unreadable stamp is no stamp
    }
  }
  return {
    patched: false,
    why:
      `${packageName} is not built with Sluice's patch (a prebuilt binary, or the install's patch step failed), so librdkafka inflates compressed ` +
      "record batches without a bound and builds every header of a record on the poller's thread (docs/failures.md). Build it from source and patch it: " +
      `npm rebuild ${packageName} --build-from-source, then node node_modules/serverless-sluice/infra/patches/librdkafka.mjs (in the Sluice repository: node infra/patches/librdkafka.mjs)`,
  };
}
