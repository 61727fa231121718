/**
 * Glue's zlib-compressed payloads (compression byte 5), inflated off the event loop and bounded
 * (README, "Bounds on hostile input"): a record to at most Lambda's payload limit (nothing larger
 * can be invoked), a batch's records together to at most maxDecompressedBytes. Past either, or not
 * zlib, the attribute is a FrameError: the record's DESERIALIZATION_ERROR.
 */
import { promisify } from 'node:util';
import { inflate as inflateCb } from 'node:zlib';
import { MAX_PAYLOAD_BYTES } from '../chunking/chunker.ts';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { FrameError, type Frame } from './wire.ts';

const inflate = promisify(inflateCb);

export const isCompressed = (f: Frame | FrameError | undefined): f is Frame => f !== undefined && !(f instanceof FrameError) && f.compressed;

/** `budget.left`: what the batch may still inflate to; spent by what this inflates. */
export async function inflateFrame(f: Frame | FrameError | undefined, budget: { left: number }): Promise<Frame | FrameError | undefined> {
  if (!isCompressed(f)) return f;
  const limit = Math.min(MAX_PAYLOAD_BYTES, budget.left);
  try {
    const payload = await inflate(f.payload, { maxOutputLength: Math.max(1, limit) });
    budget.left -= payload.length;
    return { schemaId: f.schemaId, payload, compressed: false };
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') return new FrameError(`the zlib-compressed payload does not inflate: ${(e as Error).message}`);
    const which = limit === MAX_PAYLOAD_BYTES ? `${MAX_PAYLOAD_BYTES} bytes, Lambda's payload limit` : `what is left of the batch's ${INPUT_BOUNDS.maxDecompressedBytes} bytes (maxDecompressedBytes)`;
    return new FrameError(`the zlib-compressed payload inflates to more than ${which}`);
  }
}
