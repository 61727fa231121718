/**
 * `serverless-sluice/handler`: what a handler author imports. The middy middleware that decodes
 * records, the typed partial batch response, and AWS's Kafka event types (the same events on
 * Sluice and on AWS), so a handler needs no other package for them.
 */
export { decodeRecord, kafkaJsonDecoder, type Decoded, type DecodedKafkaEvent, type DecodedRecord } from './decode.ts';
export { batchResponse, eachRecord, type KafkaBatchItemFailure, type KafkaBatchResponse } from './batch-response.ts';
export type { Context, SelfManagedKafkaEvent, SelfManagedKafkaRecord, MSKEvent, MSKRecord } from 'aws-lambda';

/**
 * A record of a `consumptionMode: queue` trigger: AWS's record plus `deliveryCount`, how many times
 * the share group has handed it out (1 the first time). Sluice's addition, absent in stream mode.
 */
export type QueueKafkaRecord = import('aws-lambda').SelfManagedKafkaRecord & { deliveryCount: number };
