/**
 * Glue's zlib-compressed payloads (compression byte 5), inflated off the event loop and bounded
 * (README, "Bounds on hostile input"): a record to at most Lambda's payload limit (nothing larger
 * can be invoked), a batch's records together to at most maxDecompressedBytes. Past either, or not
 * zlib, the attribute is a FrameError: the record's DESERIALIZATION_ERROR.
 */
import { MAX_PAYLOAD_BYTES } from '../chunking/chunker.ts';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { inflateAtMost } from '../kafka/codecs/inflate.ts';
import { FrameError, type Frame } from './wire.ts';

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
  let payload;
  try {
    payload = await inflateAtMost('inflate', f.payload, limit);
  } catch (e) {
    return new FrameError(`the zlib-compressed payload does not inflate: ${(e as Error).message}`);
  }
  if (payload) {
    budget.left -= payload.length;
    return { schemaId: f.schemaId, payload, compressed: false };
  }
  if (limit < MAX_PAYLOAD_BYTES) throw new BatchInflateBudgetSpent(`the batch inflated ${INPUT_BOUNDS.maxDecompressedBytes - budget.left} of its ${INPUT_BOUNDS.maxDecompressedBytes} bytes (maxDecompressedBytes)`);
  return new FrameError(`the zlib-compressed payload inflates to more than ${MAX_PAYLOAD_BYTES} bytes, Lambda's payload limit`);
}
