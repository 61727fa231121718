import type { Context, SelfManagedKafkaEvent } from 'aws-lambda';

/**
 * A plain typed handler: the same code runs on AWS's Kafka event source mapping and on Sluice.
 * Values arrive base64-encoded; a null value is a tombstone.
 */
export const handler = async (event: SelfManagedKafkaEvent, context: Context): Promise<void> => {
  for (const [partition, records] of Object.entries(event.records)) {
    for (const record of records) {
      const value = record.value === null ? '(tombstone)' : Buffer.from(record.value, 'base64').toString('utf8');
      console.log(`${partition}@${record.offset} ${value}`);
    }
  }
  console.log(`${context.functionName}: ${Object.values(event.records).flat().length} records, ${context.getRemainingTimeInMillis()} ms left`);
};
