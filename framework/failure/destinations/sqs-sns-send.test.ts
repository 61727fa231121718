/**
 * What an SQS queue or SNS topic destination sends, and that SQS and SNS take it: a loopback server
 * stands in for both APIs (SQS's JSON protocol, SNS's query protocol) and refuses what they refuse:
 * a `.fifo` send without MessageGroupId or MessageDeduplicationId (every send of a FIFO destination
 * failed, and the partition waited on its record for ever), a deduplication id on a standard queue,
 * and a body with a character outside SQS's set (U+FFFF in a header name did the same). The
 * integration tier (tests/integration/aws-destinations.test.ts) sends to a real AWS API.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailedRecord } from '../failed-record.ts';
import { createSnsDestination, createSqsDestination } from './aws.ts';

interface Landed {
  target: string;
  body: string;
  group?: string;
  dedup?: string;
}

/** XML 1.0's characters, SQS's rule for a message body. */
const ALLOWED = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

function refusal(target: string, body: string, group?: string, dedup?: string): string | undefined {
  if (!ALLOWED.test(body)) return 'InvalidMessageContents';
  if (target.endsWith('.fifo') && !group) return 'MissingParameter: MessageGroupId';
  if (target.endsWith('.fifo') && !dedup) return 'InvalidParameterValue: MessageDeduplicationId (no content-based deduplication)';
  if (!target.endsWith('.fifo') && dedup) return 'InvalidParameterValue: MessageDeduplicationId is for FIFO only';
  return undefined;
}

function fakeAws(landed: Landed[]): Server {
  return createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const target = req.headers['x-amz-target'];
      if (target === 'AmazonSQS.GetQueueUrl') {
        const { QueueName } = JSON.parse(text) as { QueueName: string };
        return res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ QueueUrl: `http://${req.headers.host}/123456789012/${QueueName}` }));
      }
      if (target === 'AmazonSQS.SendMessage') {
        const m = JSON.parse(text) as { QueueUrl: string; MessageBody: string; MessageGroupId?: string; MessageDeduplicationId?: string };
        const refused = refusal(m.QueueUrl, m.MessageBody, m.MessageGroupId, m.MessageDeduplicationId);
        if (refused) return res.writeHead(400, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ __type: 'com.amazonaws.sqs#InvalidParameterValue', message: refused }));
        landed.push({ target: m.QueueUrl.split('/').pop()!, body: m.MessageBody, ...(m.MessageGroupId ? { group: m.MessageGroupId } : {}), ...(m.MessageDeduplicationId ? { dedup: m.MessageDeduplicationId } : {}) });
        return res.writeHead(200, { 'content-type': 'application/x-amz-json-1.0' }).end(JSON.stringify({ MessageId: 'm', MD5OfMessageBody: createHash('md5').update(m.MessageBody).digest('hex') }));
      }
      const form = new URLSearchParams(text);
      if (form.get('Action') === 'Publish') {
        const [topic, body, group, dedup] = [form.get('TopicArn')!, form.get('Message')!, form.get('MessageGroupId') ?? undefined, form.get('MessageDeduplicationId') ?? undefined];
        const refused = refusal(topic, body, group, dedup);
        if (refused) return res.writeHead(400, { 'content-type': 'text/xml' }).end(`<ErrorResponse><Error><Type>Sender</Type><Code>InvalidParameter</Code><Message>${refused}</Message></Error><RequestId>r</RequestId></ErrorResponse>`);
        landed.push({ target: topic.split(':').pop()!, body, ...(group ? { group } : {}), ...(dedup ? { dedup } : {}) });
        return res.writeHead(200, { 'content-type': 'text/xml' }).end('<PublishResponse><PublishResult><MessageId>m</MessageId></PublishResult><ResponseMetadata><RequestId>r</RequestId></ResponseMetadata></PublishResponse>');
      }
      res.writeHead(400).end();
    });
  });
}

const failed = (offset: number, at: number, headerName = 'trace'): FailedRecord => ({
  record: { topic: 'orders', partition: 3, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [[headerName, Buffer.from('t')]] },
  reason: 'RetryAttemptsExhausted', attempts: 2, functionName: 'f', consumerGroupId: 'g', at,
});
const sqs = (name: string) => createSqsDestination({ kind: 'sqs', uri: `arn:aws:sqs:us-east-1:123456789012:${name}`, region: 'us-east-1', accountId: '123456789012', name });
const sns = (name: string) => createSnsDestination({ kind: 'sns', uri: `arn:aws:sns:us-east-1:123456789012:${name}`, region: 'us-east-1', accountId: '123456789012', name });

describe('SQS and SNS destinations: what is sent', () => {
  let server: Server;
  const landed: Landed[] = [];
  beforeAll(async () => {
    server = fakeAws(landed);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    Object.assign(process.env, { AWS_ENDPOINT_URL_SQS: endpoint, AWS_ENDPOINT_URL_SNS: endpoint, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  for (const [kind, make] of [['SQS queue', sqs], ['SNS topic', sns]] as const) {
    it(`a .fifo ${kind} gets the source partition as the group and one deduplication id per failure, so a resend dedups`, async () => {
      landed.length = 0;
      const d = make('failed.fifo');
      await d.send([failed(7, 1_000), failed(8, 1_000)]);
      await d.send([failed(7, 2_000)]); // the same failure sent again (a send past its deadline), at another time
      await d.close();
      expect(landed.map((l) => [l.target, l.group])).toEqual([['failed.fifo', 'orders-3'], ['failed.fifo', 'orders-3'], ['failed.fifo', 'orders-3']]);
      const [seven, eight, again] = landed.map((l) => l.dedup);
      expect(seven).toMatch(/^[0-9a-f]{64}$/);
      expect(again).toBe(seven);
      expect(eight).not.toBe(seven);
    });

    it(`a standard ${kind} gets neither`, async () => {
      landed.length = 0;
      const d = make('failed');
      await d.send([failed(7, 1_000)]);
      await d.close();
      expect(landed).toEqual([{ target: 'failed', body: expect.any(String) }]);
    });

    it(`a ${kind} takes a record whose header name holds U+FFFF, and the document gives the name back`, async () => {
      landed.length = 0;
      const d = make('failed');
      await d.send([failed(7, 1_000, 'trace\uFFFF\uFFFE')]);
      await d.close();
      const doc = JSON.parse(landed[0]!.body) as { record: { headers: Array<Record<string, number[]>> } };
      expect(Object.keys(doc.record.headers[0]!)).toEqual(['trace\uFFFF\uFFFE']);
    });
  }
});
