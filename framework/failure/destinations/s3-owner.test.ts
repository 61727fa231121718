/**
 * The S3 destination names the bucket owner it expects, and a bucket of another owner refuses the
 * write, as S3 does (x-amz-expected-bucket-owner, 403 AccessDenied). The loopback server stands in
 * for S3 only in that check; tests/integration/aws-destinations.test.ts writes to a real S3 API.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FailedRecord } from '../failed-record.ts';
import { createS3Destination } from './aws.ts';

const OWNER = '111122223333';
const failed: FailedRecord = {
  record: { topic: 't', partition: 0, offset: 1, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [] },
  reason: 'RetryAttemptsExhausted', attempts: 1, functionName: 'f', consumerGroupId: 'g', at: 0,
};

describe('S3 destination', () => {
  let server: Server;
  const seen: Array<string | undefined> = [];
  beforeAll(async () => {
    server = createServer((req, res) => {
      const expected = req.headers['x-amz-expected-bucket-owner'] as string | undefined;
      seen.push(expected);
      req.resume().on('end', () => {
        if (expected !== undefined && expected !== OWNER) res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
        else res.writeHead(200, { etag: '"e"' }).end();
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    Object.assign(process.env, { AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('writes with ExpectedBucketOwner, so a bucket of another account refuses the record', async () => {
    const bucket = { kind: 's3' as const, uri: 'arn:aws:s3:::failed', bucket: 'failed' };
    const mine = createS3Destination(bucket, OWNER);
    await mine.send([failed], new AbortController().signal);
    const theirs = createS3Destination(bucket, '999999999999');
    await expect(theirs.send([failed], new AbortController().signal)).rejects.toThrow(/Access Denied|AccessDenied/);
    expect(seen).toEqual([OWNER, '999999999999']);
    await Promise.all([mine.close(), theirs.close()]);
  });
});
