/**
 * Pure: the offset a partition may commit after a chunk, from each record's outcome. Kafka
 * commits a position (the next record to read), so only an unbroken run of finished records
 * from the chunk's start moves it: the first record that failed is where the partition resumes.
 */
export type RecordOutcome = 'succeeded' | 'failed' | 'set-aside';

export interface OutcomeOf {
  offset: number;
  outcome: RecordOutcome;
}

/**
 * `outcomes` in offset order. Returns the offset to commit (`last finished + 1`), or
 * undefined when the first record did not finish (nothing may be committed).
 */
export function committableOffset(outcomes: readonly OutcomeOf[]): number | undefined {
  let next: number | undefined;
  for (const o of outcomes) {
    if (o.outcome === 'failed') break;
    next = o.offset + 1;
  }
  return next;
}
