import middy from '@middy/core';
import { kafkaJsonDecoder, type DecodedKafkaEvent } from 'serverless-sluice/handler';

interface Payment {
  id: string;
  amount: number;
  currency: string;
}

/** A middy-wrapped handler: keys, values (JSON) and headers are decoded before it runs. */
const totals = async (event: DecodedKafkaEvent<Payment>): Promise<void> => {
  const byCurrency = new Map<string, number>();
  for (const { decoded } of Object.values(event.records).flat()) {
    if (!decoded.value) continue;
    byCurrency.set(decoded.value.currency, (byCurrency.get(decoded.value.currency) ?? 0) + decoded.value.amount);
  }
  console.log('payment totals', Object.fromEntries(byCurrency));
};

export const handler = middy<DecodedKafkaEvent<Payment>>().use(kafkaJsonDecoder<Payment>()).handler(totals);
