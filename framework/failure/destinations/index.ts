import type { Destination } from '../../config/types.ts';
import { createKafkaDestination } from '../../kafka/failure-producer.ts';
import type { KafkaSecurity } from '../../kafka/security.ts';
import type { Logger } from '../../observe/logger.ts';
import { createS3Destination, createSnsDestination, createSqsDestination } from './aws.ts';
import type { DestinationSender } from './types.ts';

export type { DestinationSender } from './types.ts';

/** One sender per destination; a `kafka://` destination lives on the trigger's own cluster, reached with the trigger's security. */
export function createDestination(d: Destination, brokers: string[], logger: Logger, security?: KafkaSecurity): DestinationSender {
  switch (d.kind) {
    case 'kafka':
      return createKafkaDestination(d.uri, d.topic, brokers, logger, security);
    case 'sqs':
      return createSqsDestination(d);
    case 'sns':
      return createSnsDestination(d);
    case 's3':
      return createS3Destination(d);
  }
}
