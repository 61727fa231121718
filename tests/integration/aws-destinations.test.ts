/**
 * SNS and S3 on-failure destinations through AWS SDK v3 against a real AWS-compatible server
 * (moto): the failed record arrives with why, when and how many attempts. (SQS, including an
 * outage, is in destination-outage.test.ts.)
 */
import { GetObjectCommand, ListObjectsV2Command, S3Client, CreateBucketCommand } from '@aws-sdk/client-s3';
import { CreateTopicCommand, SNSClient, SubscribeCommand } from '@aws-sdk/client-sns';
import { CreateQueueCommand, GetQueueAttributesCommand, ReceiveMessageCommand, SQSClient } from '@aws-sdk/client-sqs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailurePolicy } from '../../framework/config/types.ts';
import { startRecorder, type Harness } from '../support/harness.ts';
import { createTopic, deleteTopic, offsets, produce, uniqueName, waitFor } from '../support/kafka.ts';
import { moto } from '../support/moto.ts';
import { testPort } from '../support/ports.ts';

const server = moto(testPort(28771));
const aws = { endpoint: server.endpoint, region: 'us-east-1', credentials: { accessKeyId: 'test', secretAccessKey: 'test' } };
const policy = (onFailure: FailurePolicy['onFailure']): FailurePolicy => ({
  maximumRetryAttempts: 1, maximumRecordAgeMs: undefined, bisectBatchOnFunctionError: false, reportBatchItemFailures: false, onFailure,
});

describe('SNS and S3 destinations', () => {
  const topics: string[] = [];
  const harnesses: Harness[] = [];
  beforeAll(async () => {
    await server.start();
    Object.assign(process.env, { AWS_ENDPOINT_URL: server.endpoint, AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', AWS_REGION: 'us-east-1' });
  });
  afterAll(async () => {
    await Promise.all(harnesses.map((h) => h.stop()));
    await server.stop();
    await Promise.all(topics.map(deleteTopic));
  });

  const poison = async (onFailure: FailurePolicy['onFailure']) => {
    const topic = uniqueName('aws-dest');
    topics.push(topic);
    await createTopic(topic, 1);
    await produce(topic, [{ key: 'k0', value: 'fine' }, { key: 'k1', value: 'poison' }]);
    const h = await startRecorder({ topic, batchSize: 1, failure: policy(onFailure), env: { POISON_OFFSETS: '1' } });
    harnesses.push(h);
    await waitFor('committed', async () => (await offsets(h.trigger.consumerGroupId, topic))[0]!.committed === 2, 60_000);
    return topic;
  };

  it('publishes the failed record to SNS', async () => {
    const sns = new SNSClient(aws);
    const sqs = new SQSClient(aws);
    const { TopicArn } = await sns.send(new CreateTopicCommand({ Name: uniqueName('failed') }));
    const { QueueUrl } = await sqs.send(new CreateQueueCommand({ QueueName: uniqueName('sns-tap') }));
    const { Attributes } = await sqs.send(new GetQueueAttributesCommand({ QueueUrl, AttributeNames: ['QueueArn'] }));
    await sns.send(new SubscribeCommand({ TopicArn, Protocol: 'sqs', Endpoint: Attributes!.QueueArn, Attributes: { RawMessageDelivery: 'true' } }));
    const [, , , region, accountId, name] = TopicArn!.split(':');
    const topic = await poison({ kind: 'sns', uri: TopicArn!, region: region!, accountId: accountId!, name: name! });
    const { Messages = [] } = await sqs.send(new ReceiveMessageCommand({ QueueUrl, WaitTimeSeconds: 2 }));
    const doc = JSON.parse(Messages[0]!.Body!) as { requestContext: { condition: string; approximateInvokeCount: number }; source: { topic: string; offset: number }; record: { value: string } };
    expect(doc.requestContext).toMatchObject({ condition: 'RetryAttemptsExhausted', approximateInvokeCount: 2 });
    expect(doc.source).toMatchObject({ topic, offset: 1 });
    expect(Buffer.from(doc.record.value, 'base64').toString()).toBe('poison');
    sns.destroy();
    sqs.destroy();
  });

  it('writes the failed record to S3', async () => {
    const s3 = new S3Client({ ...aws, forcePathStyle: true });
    const bucket = uniqueName('failed').toLowerCase();
    await s3.send(new CreateBucketCommand({ Bucket: bucket }));
    const topic = await poison({ kind: 's3', uri: `arn:aws:s3:::${bucket}`, bucket });
    const { Contents = [] } = await s3.send(new ListObjectsV2Command({ Bucket: bucket }));
    expect(Contents).toHaveLength(1);
    expect(Contents[0]!.Key).toMatch(new RegExp(`^sluice/recorder/${topic}/0/0{19}1-\\d+\\.json$`));
    const body = await (await s3.send(new GetObjectCommand({ Bucket: bucket, Key: Contents[0]!.Key! }))).Body!.transformToString();
    const doc = JSON.parse(body) as { requestContext: { condition: string }; record: { key: string; value: string } };
    expect(doc.requestContext.condition).toBe('RetryAttemptsExhausted');
    expect(Buffer.from(doc.record.key, 'base64').toString()).toBe('k1');
    s3.destroy();
  });
});
