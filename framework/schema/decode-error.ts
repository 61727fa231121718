/** A record's bytes that do not decode with their schema: AWS's DESERIALIZATION_ERROR. */
export class DecodeError extends Error {
  override readonly name = 'DecodeError';
}

/** Runs a library's decoder, turning whatever it throws into a DecodeError naming the format. */
export function decoding<T>(format: string, run: () => T): T {
  try {
    return run();
  } catch (e) {
    if (e instanceof DecodeError) throw e;
    throw new DecodeError(`the bytes are not ${format} of the registered schema: ${(e as Error).message}`);
  }
}

/** A value that does not fit the schema it is to be written with (`produce --subject`). */
export class EncodeError extends Error {
  override readonly name = 'EncodeError';
}
