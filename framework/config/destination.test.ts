import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { DESTINATION_FORMS, DESTINATION_PATTERN, parseDestination } from './destination.ts';

const problemOf = (uri: string) => parseDestination(uri).problem;

describe('parseDestination', () => {
  it('parses kafka://<topic>', () => {
    expect(parseDestination('kafka://orders-failed')).toEqual({ destination: { kind: 'kafka', uri: 'kafka://orders-failed', topic: 'orders-failed' } });
    expect(parseDestination('kafka://a.b_C-9').destination).toMatchObject({ topic: 'a.b_C-9' });
    expect(parseDestination(`kafka://${'t'.repeat(249)}`).destination).toMatchObject({ kind: 'kafka' });
  });

  it('parses SQS queue ARNs, FIFO ones included', () => {
    const uri = 'arn:aws:sqs:us-east-1:123456789012:orders-failed';
    expect(parseDestination(uri)).toEqual({
      destination: { kind: 'sqs', uri, region: 'us-east-1', accountId: '123456789012', name: 'orders-failed' },
    });
    expect(parseDestination('arn:aws:sqs:us-gov-west-1:123456789012:Q_1.fifo').destination).toMatchObject({ region: 'us-gov-west-1', name: 'Q_1.fifo' });
    expect(parseDestination(`arn:aws:sqs:eu-west-3:123456789012:${'q'.repeat(80)}`).destination).toMatchObject({ kind: 'sqs' });
    expect(parseDestination(`arn:aws:sqs:eu-west-3:123456789012:${'q'.repeat(75)}.fifo`).destination).toMatchObject({ kind: 'sqs' });
  });

  it('parses SNS topic ARNs', () => {
    const uri = 'arn:aws:sns:ap-southeast-2:210987654321:orders_failed';
    expect(parseDestination(uri)).toEqual({
      destination: { kind: 'sns', uri, region: 'ap-southeast-2', accountId: '210987654321', name: 'orders_failed' },
    });
    expect(parseDestination(`arn:aws:sns:us-east-1:123456789012:${'t'.repeat(256)}`).destination).toMatchObject({ kind: 'sns' });
    expect(parseDestination('arn:aws:sns:us-east-1:123456789012:t.fifo').destination).toMatchObject({ name: 't.fifo' });
  });

  it('parses S3 bucket ARNs', () => {
    expect(parseDestination('arn:aws:s3:::orders-failed')).toEqual({ destination: { kind: 's3', uri: 'arn:aws:s3:::orders-failed', bucket: 'orders-failed' } });
    expect(parseDestination('arn:aws:s3:::my.bucket-1').destination).toMatchObject({ bucket: 'my.bucket-1' });
    expect(parseDestination('arn:aws:s3:::abc').destination).toMatchObject({ bucket: 'abc' });
    expect(parseDestination(`arn:aws:s3:::${'b'.repeat(63)}`).destination).toMatchObject({ kind: 's3' });
  });

  it('says what is wrong with a kafka:// destination', () => {
    const problem = 'must be kafka:// followed by a topic name of 1–249 letters, digits, ".", "_" or "-"';
    expect(problemOf('kafka://')).toBe(problem);
    expect(problemOf('kafka://orders failed')).toBe(problem);
    expect(problemOf(`kafka://${'t'.repeat(250)}`)).toBe(problem);
    expect(problemOf('kafka://orders/failed')).toBe(problem);
  });

  it('says which part of an SQS or SNS ARN is wrong', () => {
    expect(problemOf('arn:aws:sqs:us-east-1:orders')).toBe(
      'must be an SQS queue ARN of the form arn:aws:sqs:<region>:<12-digit account>:<name>',
    );
    expect(problemOf('arn:aws:sns:us-east-1:123456789012:a:b')).toBe(
      'must be an SNS topic ARN of the form arn:aws:sns:<region>:<12-digit account>:<name>',
    );
    expect(problemOf('arn:aws:sqs:US-EAST-1:123456789012:q')).toBe('must name a region such as us-east-1, not "US-EAST-1"');
    expect(problemOf('arn:aws:sqs::123456789012:q')).toBe('must name a region such as us-east-1, not ""');
    expect(problemOf('arn:aws:sqs:us-east-1:1234:q')).toBe('must name a 12-digit account, not "1234"');
    expect(problemOf('arn:aws:sns:us-east-1:12345678901a:t')).toBe('must name a 12-digit account, not "12345678901a"');
    expect(problemOf('arn:aws:sqs:us-east-1:123456789012:my queue')).toBe(
      'must name a queue of 1–80 letters, digits, "-" or "_" (ending in .fifo for a FIFO queue), not "my queue"',
    );
    expect(problemOf(`arn:aws:sqs:us-east-1:123456789012:${'q'.repeat(81)}`)).toContain('must name a queue of 1–80');
    expect(problemOf(`arn:aws:sqs:us-east-1:123456789012:${'q'.repeat(76)}.fifo`)).toContain('must name a queue of 1–80');
    expect(problemOf('arn:aws:sqs:us-east-1:123456789012:')).toContain('must name a queue');
    expect(problemOf(`arn:aws:sns:us-east-1:123456789012:${'t'.repeat(257)}`)).toContain('must name a topic of 1–256');
    expect(problemOf('arn:aws:sns:us-east-1:123456789012:t.v1')).toContain('must name a topic of 1–256');
  });

  it('says what is wrong with an S3 ARN', () => {
    const bucket = (name: string) =>
      'must name a bucket of 3–63 lowercase letters, digits, "." or "-" that starts and ends with a letter or digit, ' +
      `has no ".." and is not an IP address, not "${name}"`;
    for (const name of ['ab', 'b'.repeat(64), 'Orders', 'my_bucket', '-orders', 'orders.', 'my..bucket', '192.168.5.4', 'a/b']) {
      expect(problemOf(`arn:aws:s3:::${name}`)).toBe(bucket(name));
    }
    expect(problemOf('arn:aws:s3:us-east-1:123456789012:orders')).toBe(
      'must be an S3 bucket ARN of the form arn:aws:s3:::<bucket>, with no region or account',
    );
  });

  it('refuses other URIs, services and partitions', () => {
    const generic = 'must be kafka://<topic> or an SQS queue, SNS topic or S3 bucket ARN';
    for (const uri of ['orders-failed', 'https://sqs.us-east-1.amazonaws.com/123456789012/q', 'KAFKA://orders', 'sqs://q', '']) {
      expect(problemOf(uri)).toBe(generic);
    }
    expect(problemOf('arn:aws:lambda:us-east-1:123456789012:function:f')).toBe(
      'must be an SQS queue, SNS topic or S3 bucket ARN; no other AWS service is a Sluice destination',
    );
    expect(problemOf('arn:aws-cn:sqs:cn-north-1:123456789012:q')).toBe(
      'must be an ARN in the aws partition (arn:aws:…); other partitions are not supported',
    );
  });

  it('names every accepted form with an example that parses', () => {
    const examples = DESTINATION_FORMS.match(/e\.g\. [^)]+/g)?.map((e) => e.slice('e.g. '.length)) ?? [];
    expect(examples.map((e) => parseDestination(e).destination?.kind)).toEqual(['kafka', 'sqs', 'sns', 's3']);
  });
});

describe('DESTINATION_PATTERN', () => {
  const pattern = new RegExp(DESTINATION_PATTERN, 'u');
  const accepted = (uri: string) => parseDestination(uri).destination !== undefined;

  it('accepts exactly what parseDestination accepts', () => {
    const part = fc.stringMatching(/^[a-zA-Z0-9._:\/ -]{0,12}$/);
    const prefix = fc.constantFrom('kafka://', 'arn:aws:sqs:', 'arn:aws:sns:', 'arn:aws:s3:::', 'arn:aws:s3:', '');
    const region = fc.constantFrom('us-east-1', 'eu-central-1', 'us-gov-west-1', 'US-east-1', 'useast1', '');
    const account = fc.constantFrom('123456789012', '12345678901', '1234567890123', 'x23456789012');
    const arn = fc.tuple(fc.constantFrom('sqs', 'sns'), region, account, part, fc.constantFrom('', '.fifo'))
      .map(([service, r, a, name, suffix]) => `arn:aws:${service}:${r}:${a}:${name}${suffix}`);
    const uri = fc.oneof(fc.tuple(prefix, part).map(([p, rest]) => p + rest), arn, fc.string());
    fc.assert(fc.property(uri, (u) => pattern.test(u) === accepted(u)), { numRuns: 2000 });
  });

  it('covers the edge cases of each form the same way', () => {
    const cases = [
      'kafka://orders', 'kafka://', 'arn:aws:s3:::1.2.3.4', 'arn:aws:s3:::a..b', 'arn:aws:s3:::abc',
      `arn:aws:sqs:us-east-1:123456789012:${'q'.repeat(75)}.fifo`, `arn:aws:sqs:us-east-1:123456789012:${'q'.repeat(76)}.fifo`,
    ];
    for (const uri of cases) expect(pattern.test(uri)).toBe(accepted(uri));
  });
});
