/**
 * zlib's inflate, off the event loop, stopped past a number of output bytes: shared by the gzip
 * record codec (index.ts) and Glue's zlib-compressed payloads (framework/schema/glue-inflate.ts).
 */
import { promisify } from 'node:util';
import { inflate, unzip } from 'node:zlib';

const ZLIB = { unzip: promisify(unzip), inflate: promisify(inflate) };

/**
 * The inflated bytes, or undefined past `limit` of them (zlib's maxOutputLength stops it there).
 * `unzip` reads gzip or zlib framing, `inflate` zlib's only. Anything else zlib says is thrown.
 */
export async function inflateAtMost(framing: keyof typeof ZLIB, buffer: Buffer, limit: number): Promise<Buffer | undefined> {
  try {
    return await ZLIB[framing](buffer, { maxOutputLength: Math.max(1, limit) });
  } catch (e) {
    if ((e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') return undefined;
    throw e;
  }
}
