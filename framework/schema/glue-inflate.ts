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

/** What a fetch may inflate is spent before this record: it is read again, with the rest, from the next fetch. */
export class BatchInflateBudgetSpent extends Error {
  override readonly name = 'BatchInflateBudgetSpent';
}

/**
 * `budget.left`: what the batch may still inflate to; spent by what this inflates. A record past
 * Lambda's payload limit on its own is that record's failure; one that would only overrun what is
 * left of the batch's budget throws BatchInflateBudgetSpent (the decoder ends the batch before it).
 */
export async function inflateFrame(f: Frame | FrameError | undefined, budget: { left: number }): Promise<Frame | FrameError | undefined> {
  if (!isCompressed(f)) return f;
  const limit = Math.min(MAX_PAYLOAD_BYTES, budget.left);
  try {
    const payload = await inflate(f.payload, { maxOutputLength: Math.max(1, limit) });
    budget.left -= payload.length;
    return { schemaId: f.schemaId, payload, compressed: false };
  } catch (e) {
    if ((e as { code?: string }).code !== 'ERR_BUFFER_TOO_LARGE') return new FrameError(`the zlib-compressed payload does not inflate: ${(e as Error).message}`);
    if (limit < MAX_PAYLOAD_BYTES) throw new BatchInflateBudgetSpent(`the batch inflated ${INPUT_BOUNDS.maxDecompressedBytes - budget.left} of its ${INPUT_BOUNDS.maxDecompressedBytes} bytes (maxDecompressedBytes)`);
    return new FrameError(`the zlib-compressed payload inflates to more than ${MAX_PAYLOAD_BYTES} bytes, Lambda's payload limit`);
  }
}
