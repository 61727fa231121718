/**
 * Review 2 (74a3554): "a native event's onFailureDestination is now its on-failure destination".
 * That applies to every emulated native event, stream mode included, not only to the new queue
 * mode: a stream-mode kafka event that osls accepts and AWS deploys, whose onFailureDestination
 * Sluice's destination parser does not know (an ARN in another AWS partition, here AWS China), was
 * read past before 74a3554 and now makes resolveService throw: with emulateNativeEvents: true the
 * plugin's initialize check (configValidationMode: error) stops `serverless package` and `deploy`,
 * and `sluice dev` refuses the service, though the event's mode did not change.
 */
import { describe, expect, it } from 'vitest';
import { resolveService } from './load.ts';

const service = (kafka: Record<string, unknown>) => ({
  service: 'shop', provider: { name: 'aws', region: 'cn-north-1' }, custom: { sluice: { emulateNativeEvents: true } },
  functions: { orders: { handler: 'functions/orders.handler', events: [{ kafka: { accessConfigurations: { saslScram512Auth: 'arn:aws-cn:secretsmanager:cn-north-1:123456789012:secret:x' }, topic: 'orders', bootstrapServers: ['b1:9092'], ...kafka } }] } },
});

describe('Review 2 (74a3554): a stream-mode native kafka event with an onFailureDestination', () => {
  it('that AWS takes (an SQS queue in AWS China) still resolves, as it did before queue mode', () => {
    const resolve = () => resolveService(service({ onFailureDestination: 'arn:aws-cn:sqs:cn-north-1:123456789012:orders-dlq' }), { rootDir: '/x', env: {} });
    expect(resolve).not.toThrow();
  });
});

describe('Review 2 (74a3554): "its problems name the native properties"', () => {
  it('a bad onFailureDestination of a queue-mode kafka event is named as onFailureDestination, not as a destinationConfig the kafka event does not have', () => {
    let message = '';
    try {
      resolveService({ ...service({ consumptionMode: 'Queue', onFailureDestination: 'kafka://orders' }), provider: { name: 'aws' } }, { rootDir: '/x', env: {} });
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message).toMatch(/functions\.orders\.events\[0\]\.kafka\.onFailureDestination/);
    expect(message).not.toMatch(/destinationConfig/);
  });
});
