/**
 * Review 3 (6c55667): a native kafka queue event's onFailureDestination becomes its destination only
 * when it is a string. One written as a CloudFormation function (Fn::GetAtt of the DLQ, as ARNs
 * usually are in serverless.yml) or a number is dropped, and the problem then says the property is
 * missing ("is required ... Add onFailureDestination") — the user is told to add what is there,
 * not that its value cannot be used locally.
 */
import { describe, expect, it } from 'vitest';
import { resolveService } from './load.ts';

const service = (kafka: Record<string, unknown>) => ({
  service: 'shop', provider: { name: 'aws' }, custom: { sluice: { emulateNativeEvents: true } },
  functions: { orders: { handler: 'functions/orders.handler', events: [{ kafka: { accessConfigurations: { saslScram512Auth: 'arn:aws:secretsmanager:us-east-1:1:secret:x' }, topic: 'orders', bootstrapServers: ['b:9092'], ...kafka } }] } },
});
const problems = (doc: ReturnType<typeof service>) => {
  try {
    resolveService(doc, { rootDir: '/x', env: {} });
    return [];
  } catch (e) {
    return (e as Error).message.split('\n').slice(1).map((l) => l.trim().replace(/^- /, ''));
  }
};

describe('Review 3 (6c55667): a native kafka queue event whose onFailureDestination is not a string', () => {
  for (const value of [{ 'Fn::GetAtt': ['OrdersDlq', 'Arn'] }, 123]) {
    it(`reports onFailureDestination ${JSON.stringify(value)} as unusable, not as missing`, () => {
      const found = problems(service({ consumptionMode: 'Queue', onFailureDestination: value }));
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^functions\.orders\.events\[0\]\.kafka\.onFailureDestination/);
      expect(found[0]).not.toMatch(/is required|Add onFailureDestination/);
    });
  }
});
