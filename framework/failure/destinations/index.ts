import type { Destination } from '../../config/types.ts';
import { createKafkaDestination } from '../../kafka/failure-producer.ts';
import type { Logger } from '../../observe/logger.ts';
import { createS3Destination, createSnsDestination, createSqsDestination } from './aws.ts';
import type { DestinationSender } from './types.ts';

export type { DestinationSender } from './types.ts';

/** One sender per destination; a `kafka://` destination lives on the trigger's own cluster. */
export function createDestination(d: Destination, brokers: string[], logger: Logger): DestinationSender {
  switch (d.kind) {
    case 'kafka':
      return createKafkaDestination(d.uri, d.topic, brokers, logger);
    case 'sqs':
      return createSqsDestination(d);
    case 'sns':
      return createSnsDestination(d);
    case 's3':
      return createS3Destination(d);
  }
}
