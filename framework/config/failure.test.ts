import { describe, expect, it } from 'vitest';
import { DESTINATION_FORMS } from './destination.ts';
import { FAILURE_DEFAULTS, failurePolicy } from './failure.ts';
import type { FailurePolicyInput } from './schema.ts';

const AT = 'functions.orders.events[0].sluice';
const settle = (event: FailurePolicyInput, topic = 'orders') => failurePolicy(event, { path: AT, topic });
const to = (destination: string) => ({ destinationConfig: { onFailure: { destination } } });
const NEEDS = 'without destinationConfig.onFailure.destination: Sluice never drops a record, so a record that';

describe('failure policy', () => {
  it('defaults to retrying until the handler succeeds, whole batches, no destination', () => {
    expect(FAILURE_DEFAULTS).toEqual({
      maximumRetryAttempts: -1,
      maximumRecordAgeMs: undefined,
      bisectBatchOnFunctionError: false,
      reportBatchItemFailures: false,
      onFailure: undefined,
    });
    expect(settle({})).toEqual({ policy: FAILURE_DEFAULTS, problems: [] });
    expect(settle({ maximumRetryAttempts: -1, maximumRecordAgeInSeconds: -1 })).toEqual({ policy: FAILURE_DEFAULTS, problems: [] });
  });

  it('keeps what is set, the age in ms, the destination parsed', () => {
    const event = {
      maximumRetryAttempts: 2,
      maximumRecordAgeInSeconds: 60,
      bisectBatchOnFunctionError: true,
      functionResponseType: 'ReportBatchItemFailures' as const,
      ...to('arn:aws:sqs:us-east-1:123456789012:orders-failed'),
    };
    expect(settle(event)).toEqual({
      policy: {
        maximumRetryAttempts: 2,
        maximumRecordAgeMs: 60_000,
        bisectBatchOnFunctionError: true,
        reportBatchItemFailures: true,
        onFailure: { kind: 'sqs', uri: 'arn:aws:sqs:us-east-1:123456789012:orders-failed', region: 'us-east-1', accountId: '123456789012', name: 'orders-failed' },
      },
      problems: [],
    });
  });

  it('keeps -1 retries as written with a destination (the 10-retry cap is applied where retries are counted)', () => {
    expect(settle(to('kafka://orders-failed'))).toEqual({
      policy: { ...FAILURE_DEFAULTS, onFailure: { kind: 'kafka', uri: 'kafka://orders-failed', topic: 'orders-failed' } },
      problems: [],
    });
  });

  describe('a destination that is the trigger’s own topic', () => {
    it('is refused, with another topic to pick', () => {
      const { policy, problems } = settle({ maximumRetryAttempts: 3, ...to('kafka://orders') });
      expect(problems).toEqual([
        `${AT}.destinationConfig.onFailure.destination: must not be the trigger's own topic "orders": failed records would be ` +
          'consumed again and fail in a loop (got "kafka://orders"). Pick another topic, e.g. kafka://orders-failed.',
      ]);
      expect(policy.onFailure).toMatchObject({ kind: 'kafka', topic: 'orders' });
    });

    it('compares names exactly, as Kafka does', () => {
      expect(settle(to('kafka://Orders')).problems).toEqual([]);
      expect(settle(to('kafka://orders.failed')).problems).toEqual([]);
    });

    it('suggests a topic name that is itself valid for the longest topics', () => {
      const topic = 't'.repeat(249);
      const [line] = settle(to(`kafka://${topic}`), topic).problems;
      const suggested = /e\.g\. kafka:\/\/(\S+)\.$/.exec(line ?? '')?.[1] ?? '';
      expect(suggested).toMatch(/^t+-failed$/);
      expect(suggested.length).toBe(249);
    });
  });

  describe('a limit without a destination', () => {
    it('refuses maximumRetryAttempts 0 or more', () => {
      expect(settle({ maximumRetryAttempts: 2 }).problems).toEqual([
        `${AT}: maximumRetryAttempts 2 is set ${NEEDS} exhausts its retries needs somewhere to go. ` +
          'Add destinationConfig.onFailure.destination (e.g. kafka://orders-failed), or remove maximumRetryAttempts to retry until the handler succeeds.',
      ]);
      expect(settle({ maximumRetryAttempts: 0 }).problems[0]).toContain(`${AT}: maximumRetryAttempts 0 is set without`);
      expect(settle({ maximumRetryAttempts: 10_000 }).problems[0]).toContain(`${AT}: maximumRetryAttempts 10000 is set without`);
    });

    it('refuses maximumRecordAgeInSeconds', () => {
      expect(settle({ maximumRecordAgeInSeconds: 60 }).problems).toEqual([
        `${AT}: maximumRecordAgeInSeconds 60 is set ${NEEDS} expires needs somewhere to go. ` +
          'Add destinationConfig.onFailure.destination (e.g. kafka://orders-failed), or remove maximumRecordAgeInSeconds to retry until the handler succeeds.',
      ]);
    });

    it('names both limits in one line when both are set', () => {
      expect(settle({ maximumRetryAttempts: 5, maximumRecordAgeInSeconds: 3600 }, 'payments').problems).toEqual([
        `${AT}: maximumRetryAttempts 5 and maximumRecordAgeInSeconds 3600 are set ${NEEDS} exhausts its retries or expires ` +
          'needs somewhere to go. Add destinationConfig.onFailure.destination (e.g. kafka://payments-failed), ' +
          'or remove maximumRetryAttempts and maximumRecordAgeInSeconds to retry until the handler succeeds.',
      ]);
    });

    it('accepts each limit once a destination of any kind is set', () => {
      for (const destination of ['kafka://orders-failed', 'arn:aws:sns:eu-west-1:123456789012:t', 'arn:aws:s3:::orders-failed']) {
        expect(settle({ maximumRetryAttempts: 0, maximumRecordAgeInSeconds: 604_800, ...to(destination) }).problems).toEqual([]);
      }
    });
  });

  it('reports an invalid destination once, without a second line about the missing destination', () => {
    const { policy, problems } = settle({ maximumRetryAttempts: 1, ...to('sqs://orders-failed') });
    expect(policy.onFailure).toBeUndefined();
    expect(problems).toEqual([
      `${AT}.destinationConfig.onFailure.destination: must be kafka://<topic> or an SQS queue, SNS topic or S3 bucket ARN (got "sqs://orders-failed"). ${DESTINATION_FORMS}`,
    ]);
  });
});
