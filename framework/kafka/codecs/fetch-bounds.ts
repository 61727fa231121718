/**
 * What one fetch response may cost the poller while kafkajs decodes it (README, "Bounds on hostile
 * input"), beside INPUT_BOUNDS's per-batch bound. kafkajs decodes every record batch of a response
 * before it hands any over, so a bound per batch alone let 40 batches of 1 KB, each inflating to
 * 31 MiB, hold 1.27 GiB at once.
 */
export const FETCH_BOUNDS = {
  /**
   * Decompressed bytes (and record costs, below) of one fetch response, all partitions together: a
   * partition's first batch may take a whole batch's bound (maxDecompressedBytes) while any of this
   * is left, later batches only what is left of both. A batch past it waits in the log for the next
   * fetch, which starts at it. Two batches' bounds: a response peaks below three.
   */
  maxFetchDecompressedBytes: 64 * 1024 * 1024,
  /**
   * What one record costs against those bounds besides its bytes: the objects kafkajs and Sluice
   * build for it (measured: about 1 KB per empty record once it is a Sluice record; 64 is what
   * kafkajs's message alone takes). A batch's declared record count is charged before it is
   * decompressed, so 32 MiB admits up to 524,288 records in one batch; kafkajs's producer writes
   * 130,000 empty records in one batch from one send.
   */
  recordCost: 64,
} as const;
