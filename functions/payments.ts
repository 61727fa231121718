import middy from '@middy/core';
import { jsonValues, type DecodedKafkaEvent } from '../framework/handler/json-values.ts';

interface Payment {
  id: string;
  amount: number;
  currency: string;
}

/** A middy-wrapped handler: values are decoded from JSON before the handler sees them. */
const totals = async (event: DecodedKafkaEvent<Payment>): Promise<void> => {
  const byCurrency = new Map<string, number>();
  for (const record of Object.values(event.records).flat()) {
    if (!record.decoded) continue;
    byCurrency.set(record.decoded.currency, (byCurrency.get(record.decoded.currency) ?? 0) + record.decoded.amount);
  }
  console.log('payment totals', Object.fromEntries(byCurrency));
};

export const handler = middy<DecodedKafkaEvent<Payment>>().use(jsonValues<Payment>()).handler(totals);
