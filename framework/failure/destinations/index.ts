import type { Destination } from '../../config/types.ts';
import { createKafkaDestination, type KafkaDestinationOptions } from '../../kafka/failure-producer.ts';
import { createS3Destination, createSnsDestination, createSqsDestination } from './aws.ts';
import type { DestinationSender } from './types.ts';

export type { DestinationSender } from './types.ts';

/**
 * One sender per destination; a `kafka://` destination lives on the trigger's own cluster, reached
 * with the trigger's security and written by the trigger's engine.
 */
export function createDestination(d: Destination, kafka: KafkaDestinationOptions): DestinationSender {
  switch (d.kind) {
    case 'kafka':
      return createKafkaDestination(d.uri, d.topic, kafka);
    case 'sqs':
      return createSqsDestination(d);
    case 'sns':
      return createSnsDestination(d);
    case 's3':
      return createS3Destination(d);
  }
}
