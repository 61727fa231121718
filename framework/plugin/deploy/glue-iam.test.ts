import { describe, expect, it } from 'vitest';
import { resolveService } from '../../config/load.ts';
import type { ServiceSpec } from '../../config/types.ts';
import { parseContainerConfig, TRIGGERS_ENV } from './container-config.ts';
import type { Statement } from './iam.ts';
import { declaredSecretArns } from './secrets.ts';
import { deploySettings } from './settings.ts';
import { IDS, pollerTemplate, type TemplateFragment } from './template.ts';

const REGISTRY = 'arn:aws:glue:eu-west-1:123456789012:registry/shop';
const SCHEMAS = 'arn:aws:glue:eu-west-1:123456789012:schema/shop/*';
const FORMAT = { eventRecordFormat: 'JSON', schemaValidationConfigs: [{ attribute: 'VALUE' }] };
const glue = (uri: string) => ({ schemaRegistryConfig: { schemaRegistryUri: uri, ...FORMAT } });

function service(events: Record<string, unknown[]>): ServiceSpec {
  const functions = Object.fromEntries(Object.entries(events).map(([name, ev]) => [name, { handler: `functions/${name}.handler`, events: ev }]));
  return resolveService({ service: 'shop', provider: { name: 'aws', stage: 'prod' }, custom: { sluice: { bootstrapServers: 'b-1.kafka:9092' } }, functions }, { rootDir: '/srv/shop', env: {} });
}

/** The fragment the package hook builds: its secrets from declaredSecretArns of the enabled triggers, as there. */
function fragment(s: ServiceSpec): TemplateFragment {
  const keys = [...new Set(s.triggers.map((t) => t.functionName))];
  const functions = Object.fromEntries(keys.map((k) => [k, { lambdaName: `shop-prod-${k}`, logicalId: `${k[0]!.toUpperCase()}${k.slice(1)}LambdaFunction` }]));
  return pollerTemplate({ service: s, functions, settings: deploySettings({ image: 'example/sluice:1' })!, secretArns: declaredSecretArns(s.triggers.filter((t) => t.enabled)) })!;
}

function taskRoleStatements(f: TemplateFragment): Statement[] {
  const role = f.Resources[IDS.taskRole] as { Properties: { Policies: Array<{ PolicyDocument: { Statement: Statement[] } }> } };
  return role.Properties.Policies.flatMap((p) => p.PolicyDocument.Statement);
}
const glueStatements = (f: TemplateFragment) => taskRoleStatements(f).filter((s) => s.Action.some((a) => a.startsWith('glue:')));

describe('the task role for a trigger with a Glue schema registry', () => {
  it("may read the registry and its schemas' versions (as AWS's CDK grants), exactly, and nothing else", () => {
    const f = fragment(service({ orders: [{ sluice: { topic: 'orders', ...glue(REGISTRY) } }] }));
    expect(glueStatements(f)).toEqual([
      { Sid: 'GlueGetRegistry', Effect: 'Allow', Action: ['glue:GetRegistry'], Resource: [REGISTRY] },
      { Sid: 'GlueGetSchemaVersion', Effect: 'Allow', Action: ['glue:GetSchemaVersion'], Resource: [REGISTRY, SCHEMAS] },
    ]);
    const statements = taskRoleStatements(f);
    expect(statements.map((s) => s.Sid)).toEqual(['InvokeTriggeredFunctions', 'GlueGetRegistry', 'GlueGetSchemaVersion']);
    // The schemas of that one registry are the only wildcard.
    expect(JSON.stringify(statements).match(/\*/g)).toHaveLength(1);
  });

  it("lists each registry once, in its own partition, region and account; none for a registry URL or a disabled trigger", () => {
    const china = 'arn:aws-cn:glue:cn-north-1:210987654321:registry/payments.v2';
    const f = fragment(service({
      orders: [{ sluice: { topic: 'orders', ...glue(REGISTRY) } }, { sluice: { topic: 'orders-eu', ...glue(REGISTRY) } }],
      payments: [{ sluice: { topic: 'payments', ...glue(china) } }],
      confluent: [{ sluice: { topic: 'clicks', ...glue('https://registry.example.com:8081') } }],
      off: [{ sluice: { topic: 'off', enabled: false, ...glue('arn:aws:glue:eu-west-1:123456789012:registry/unused') } }],
    }));
    expect(Object.fromEntries(glueStatements(f).map((s) => [s.Sid, s.Resource]))).toEqual({
      GlueGetRegistry: [REGISTRY, china],
      GlueGetSchemaVersion: [REGISTRY, china, SCHEMAS, 'arn:aws-cn:glue:cn-north-1:210987654321:schema/payments.v2/*'],
    });
  });

  it('has no glue statement without a Glue registry', () => {
    const f = fragment(service({ orders: [{ sluice: { topic: 'orders' } }], clicks: [{ sluice: { topic: 'clicks', ...glue('http://localhost:8081') } }] }));
    expect(glueStatements(f)).toEqual([]);
  });
});

describe('the task role for a registry URL with accessConfigs', () => {
  it('may read exactly its secrets, beside the accessConfigurations ones, once each; a disabled trigger adds none', () => {
    const arn = (name: string) => `arn:aws:secretsmanager:eu-west-1:123456789012:secret:${name}`;
    const registry = (uri: string, accessConfigs: Array<{ type: string; uri: string }>) => ({ schemaRegistryConfig: { schemaRegistryUri: uri, ...FORMAT, accessConfigs } });
    const f = fragment(service({
      orders: [{
        sluice: {
          topic: 'orders',
          accessConfigurations: { saslScram512Auth: arn('kafka-AbCdEf') },
          ...registry('https://registry.example.com', [{ type: 'BASIC_AUTH', uri: arn('registry-auth') }, { type: 'SERVER_ROOT_CA_CERTIFICATE', uri: arn('registry-ca-123456') }]),
        },
      }],
      clicks: [{ sluice: { topic: 'clicks', ...registry('https://registry.example.com', [{ type: 'CLIENT_CERTIFICATE_TLS_AUTH', uri: arn('kafka-AbCdEf') }]) } }],
      off: [{ sluice: { topic: 'off', enabled: false, ...registry('https://registry.example.com', [{ type: 'BASIC_AUTH', uri: arn('unused-AbCdEf') }]) } }],
    }));
    const read = taskRoleStatements(f).filter((s) => s.Action.includes('secretsmanager:GetSecretValue'));
    expect(read).toEqual([
      { Sid: 'ReadDeclaredSecrets', Effect: 'Allow', Action: ['secretsmanager:GetSecretValue'], Resource: [arn('kafka-AbCdEf'), `${arn('registry-auth')}-??????`, arn('registry-ca-123456')] },
    ]);
    expect(glueStatements(f)).toEqual([]);
  });
});

describe('schemaRegistryConfig in the container (SLUICE_TRIGGERS)', () => {
  it('reaches the poller container as resolved: the Glue registry with its parts, a URL with its secrets', () => {
    const s = service({
      orders: [{ sluice: { topic: 'orders', schemaRegistryConfig: { schemaRegistryUri: REGISTRY, eventRecordFormat: 'SOURCE', schemaValidationConfigs: [{ attribute: 'KEY' }, { attribute: 'VALUE' }] } } }],
      clicks: [{
        sluice: {
          topic: 'clicks',
          schemaRegistryConfig: {
            schemaRegistryUri: 'https://registry.example.com', ...FORMAT,
            accessConfigs: [{ type: 'BASIC_AUTH', uri: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:registry-auth' }],
          },
        },
      }],
    });
    const task = fragment(s).Resources[IDS.taskDefinition] as { Properties: { ContainerDefinitions: Array<{ Environment: Array<{ Name: string; Value: unknown }> }> } };
    const text = task.Properties.ContainerDefinitions[0]!.Environment.find((e) => e.Name === TRIGGERS_ENV)!.Value as string;
    const [orders, clicks] = parseContainerConfig(text).triggers;
    expect(orders!.schemaRegistry).toEqual({
      uri: REGISTRY, glue: { partition: 'aws', region: 'eu-west-1', accountId: '123456789012', registryName: 'shop' }, format: 'SOURCE', key: true, value: true, access: {},
    });
    expect(clicks!.schemaRegistry).toEqual({
      uri: 'https://registry.example.com', format: 'JSON', key: false, value: true, access: { basicAuthSecretArn: 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:registry-auth' },
    });
    expect(orders!.schemaRegistry).toEqual(s.triggers[0]!.schemaRegistry);
  });
});
