import { describe, expect, it } from 'vitest';
import type { KafkaAccess, TriggerSpec } from '../../config/types.ts';
import { declaredSecretArns, iamResource } from './secrets.ts';

const SCRAM = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka/scram-AbCdEf';
const CA = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka/ca-123456';
const CERT = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka/client';
const trigger = (enabled: boolean, access?: KafkaAccess) => ({ enabled, ...(access ? { access } : {}) }) as TriggerSpec;

describe('declaredSecretArns', () => {
  it('is empty when no trigger declares Kafka security', () => {
    expect(declaredSecretArns([trigger(true), trigger(true, { tls: true })])).toEqual([]);
  });

  it('lists the secrets of enabled triggers once each, sorted, partial ARNs matched to exactly their secret', () => {
    const triggers = [
      trigger(true, { sasl: { mechanism: 'scram-sha-512', secretArn: SCRAM }, rootCaSecretArn: CA, tls: true }),
      trigger(true, { sasl: { mechanism: 'scram-sha-512', secretArn: SCRAM }, clientCertificateSecretArn: CERT, tls: true }),
      trigger(false, { sasl: { mechanism: 'plain', secretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:unused-AAAAAA' }, tls: true }),
    ];
    expect(declaredSecretArns(triggers)).toEqual([CA, `${CERT}-??????`, SCRAM]);
  });

  it('keeps a full ARN as it is', () => {
    expect(iamResource(SCRAM)).toBe(SCRAM);
    expect(iamResource('arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka')).toBe('arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-??????');
  });
});
