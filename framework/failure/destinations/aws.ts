/**
 * SQS, SNS and S3 on-failure destinations through AWS SDK v3. Endpoints and credentials
 * come from the SDK's usual chain (AWS_REGION, AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_SQS, …),
 * so a local AWS-compatible server works without code changes. Every call takes the send's
 * abort signal: a black-holed endpoint is given up on when Delivery's deadline passes. A `.fifo`
 * queue or topic gets each message's group (the source partition) and deduplication id (fifo.ts).
 */
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { PublishCommand, SNSClient } from '@aws-sdk/client-sns';
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import type { Destination } from '../../config/types.ts';
import { failureDocument, type FailedRecord } from '../failed-record.ts';
import { fifoParameters } from './fifo.ts';
import type { DestinationSender } from './types.ts';

/** SQS and SNS take messages of at most 256 KB. */
const MESSAGE_LIMIT = 256 * 1024;

export function createSqsDestination(d: Extract<Destination, { kind: 'sqs' }>): DestinationSender {
  const client = new SQSClient({ region: d.region, maxAttempts: 2 });
  let queueUrl: string | undefined;
  return {
    uri: d.uri,
    async send(records, signal) {
      queueUrl ??= (await client.send(new GetQueueUrlCommand({ QueueName: d.name, QueueOwnerAWSAccountId: d.accountId }), { abortSignal: signal })).QueueUrl;
      for (const f of records) await client.send(new SendMessageCommand({ QueueUrl: queueUrl, MessageBody: failureDocument(f, MESSAGE_LIMIT), ...fifoParameters(d.name, f) }), { abortSignal: signal });
    },
    async close() {
      client.destroy();
    },
  };
}

export function createSnsDestination(d: Extract<Destination, { kind: 'sns' }>): DestinationSender {
  const client = new SNSClient({ region: d.region, maxAttempts: 2 });
  return {
    uri: d.uri,
    async send(records, signal) {
      for (const f of records) await client.send(new PublishCommand({ TopicArn: d.uri, Message: failureDocument(f, MESSAGE_LIMIT), ...fifoParameters(d.name, f) }), { abortSignal: signal });
    },
    async close() {
      client.destroy();
    },
  };
}

/** The account the deployed poller runs in (set by the task definition): the only owner its failure buckets may have. */
export const ACCOUNT_ENV = 'SLUICE_AWS_ACCOUNT_ID';

/**
 * `expectedBucketOwner`: S3 refuses the write (403) unless the bucket belongs to this account, so a
 * bucket deleted and re-registered by someone else under the same name never receives the records.
 * The deployed task sets it (ACCOUNT_ENV); a local run writes with the caller's own credentials.
 */
export function createS3Destination(d: Extract<Destination, { kind: 's3' }>, expectedBucketOwner = process.env[ACCOUNT_ENV] || undefined): DestinationSender {
  const client = new S3Client({ maxAttempts: 2, forcePathStyle: true });
  const owner = expectedBucketOwner ? { ExpectedBucketOwner: expectedBucketOwner } : {};
  return {
    uri: d.uri,
    async send(records, signal) {
      for (const f of records) await client.send(new PutObjectCommand({ Bucket: d.bucket, Key: objectKey(f), Body: failureDocument(f), ContentType: 'application/json', ...owner }), { abortSignal: signal });
    },
    async close() {
      client.destroy();
    },
  };
}

export function objectKey(f: FailedRecord): string {
  const r = f.record;
  return `sluice/${f.functionName}/${r.topic}/${r.partition}/${String(r.offset).padStart(20, '0')}-${f.at}.json`;
}
