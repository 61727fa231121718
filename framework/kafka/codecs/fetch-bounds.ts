/**
 * What one fetch response may cost the poller while kafkajs decodes it (README, "Bounds on hostile
 * input"), beside INPUT_BOUNDS's per-batch bound. kafkajs decodes every record batch of a response
 * before it hands any over, so a bound per batch alone let 40 batches of 1 KB, each inflating to
 * 31 MiB, hold 1.27 GiB at once.
 */
export const FETCH_BOUNDS = {
  /**
   * Decompressed bytes (and record and header costs, below) of one fetch response, all partitions
   * together, for every batch but a partition's first: that one may take a whole batch's bound
   * (maxDecompressedBytes) whatever is left, since kafkajs asks for the partitions in one fixed
   * order and a budget the first ones spent would starve the last ones. So a response holds at most
   * one batch's bound per partition plus this.
   */
  maxFetchDecompressedBytes: 64 * 1024 * 1024,
  /**
   * What a batch's declared record count is charged before it is decompressed, per record. A floor,
   * not the cost: a decoded empty record retains about 430 bytes in kafkajs and 144 in Sluice (a
   * review measured it); charging that would refuse the batch of 130,000 empty records kafkajs's
   * own producer writes from one send. At 64, a 32 MiB batch admits 524,288 records.
   */
  recordCost: 64,
  /**
   * What each header is charged as its record is built (about what kafkajs and Sluice retain for
   * one, measured): a batch of records of 1,000 tiny headers each (within maxHeaders) stops at the
   * batch's bound after about 300,000 headers, where it built 8 million (4.6 s, 819 MiB).
   */
  headerCost: 110,
} as const;
