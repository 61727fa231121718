import { describe, expect, it } from 'vitest';
import { buildSchemaRegistry, type SchemaRegistryConfigInput } from './schema-registry.ts';
import { checkSluiceEvent } from './validate.ts';

const AT = 'functions.orders.events[0].sluice';
const problemsOf = (schemaRegistryConfig: unknown) => checkSluiceEvent({ topic: 'orders', schemaRegistryConfig }, AT).problems;
const SECRET = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:registry-auth';
const CA = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:registry-ca';
const base: SchemaRegistryConfigInput = { schemaRegistryUri: 'http://localhost:8081', eventRecordFormat: 'JSON', schemaValidationConfigs: [{ attribute: 'VALUE' }] };

describe('buildSchemaRegistry', () => {
  it('takes a registry URL as a Confluent-compatible registry, with the attributes and format', () => {
    const { spec, problems } = buildSchemaRegistry({ ...base, schemaRegistryUri: 'https://registry.example.com:8081/apis/ccompat/v7' }, AT);
    expect(problems).toEqual([]);
    expect(spec).toEqual({ uri: 'https://registry.example.com:8081/apis/ccompat/v7', format: 'JSON', key: false, value: true, access: {} });
    const both = buildSchemaRegistry({ ...base, eventRecordFormat: 'SOURCE', schemaValidationConfigs: [{ attribute: 'KEY' }, { attribute: 'VALUE' }] }, AT).spec;
    expect([both.format, both.key, both.value, both.glue]).toEqual(['SOURCE', true, true, undefined]);
  });

  it("reads a Glue registry ARN's partition, region, account and registry name", () => {
    const { spec, problems } = buildSchemaRegistry({ ...base, schemaRegistryUri: 'arn:aws:glue:eu-west-1:123456789012:registry/orders.v1_x-y#z' }, AT);
    expect(problems).toEqual([]);
    expect(spec.glue).toEqual({ partition: 'aws', region: 'eu-west-1', accountId: '123456789012', registryName: 'orders.v1_x-y#z' });
    expect(buildSchemaRegistry({ ...base, schemaRegistryUri: 'arn:aws-cn:glue:cn-north-1:210987654321:registry/r' }, AT).spec.glue).toEqual({
      partition: 'aws-cn', region: 'cn-north-1', accountId: '210987654321', registryName: 'r',
    });
    // Not a registry ARN (a schema's): taken as no Glue registry.
    expect(buildSchemaRegistry({ ...base, schemaRegistryUri: 'arn:aws:glue:eu-west-1:123456789012:schema/orders/s' }, AT).spec.glue).toBeUndefined();
  });

  it('maps accessConfigs to their secrets', () => {
    const { spec, problems } = buildSchemaRegistry(
      { ...base, schemaRegistryUri: 'https://r:8081', accessConfigs: [{ type: 'BASIC_AUTH', uri: SECRET }, { type: 'SERVER_ROOT_CA_CERTIFICATE', uri: CA }] },
      AT,
    );
    expect(problems).toEqual([]);
    expect(spec.access).toEqual({ basicAuthSecretArn: SECRET, rootCaSecretArn: CA });
    expect(buildSchemaRegistry({ ...base, schemaRegistryUri: 'https://r', accessConfigs: [{ type: 'CLIENT_CERTIFICATE_TLS_AUTH', uri: SECRET }] }, AT).spec.access).toEqual({
      clientCertificateSecretArn: SECRET,
    });
  });

  it('refuses accessConfigs with a Glue registry', () => {
    const { problems } = buildSchemaRegistry({ ...base, schemaRegistryUri: 'arn:aws:glue:eu-west-1:123456789012:registry/orders', accessConfigs: [{ type: 'BASIC_AUTH', uri: SECRET }] }, AT);
    expect(problems).toEqual([
      `${AT}.schemaRegistryConfig.accessConfigs: a Glue registry is reached with the AWS credentials (glue:GetSchemaVersion), not with secrets; remove accessConfigs.`,
    ]);
  });

  it('refuses credentials in the URL, which would be logged, pointing at BASIC_AUTH', () => {
    expect(buildSchemaRegistry({ ...base, schemaRegistryUri: 'https://alice:s3cret@registry.example.com/apis/ccompat/v7' }, AT).problems).toEqual([
      `${AT}.schemaRegistryConfig.schemaRegistryUri: carries a user name or password in the URL, which would be logged and stored in the deployed task; put them in a BASIC_AUTH secret under accessConfigs instead.`,
    ]);
    expect(buildSchemaRegistry({ ...base, schemaRegistryUri: 'https://registry.example.com/path@v7' }, AT).problems).toEqual([]);
  });

  it('refuses the same access type twice', () => {
    const { problems } = buildSchemaRegistry({ ...base, accessConfigs: [{ type: 'BASIC_AUTH', uri: SECRET }, { type: 'BASIC_AUTH', uri: CA }] }, AT);
    expect(problems).toEqual([`${AT}.schemaRegistryConfig.accessConfigs: names BASIC_AUTH twice; keep one.`]);
  });

  it('refuses the TLS access types with an http:// registry, and allows BASIC_AUTH there', () => {
    const tlsProblem = `${AT}.schemaRegistryConfig.accessConfigs: CLIENT_CERTIFICATE_TLS_AUTH and SERVER_ROOT_CA_CERTIFICATE need TLS; use an https:// schemaRegistryUri, or remove them.`;
    expect(buildSchemaRegistry({ ...base, accessConfigs: [{ type: 'SERVER_ROOT_CA_CERTIFICATE', uri: CA }] }, AT).problems).toEqual([tlsProblem]);
    expect(buildSchemaRegistry({ ...base, accessConfigs: [{ type: 'CLIENT_CERTIFICATE_TLS_AUTH', uri: SECRET }] }, AT).problems).toEqual([tlsProblem]);
    expect(buildSchemaRegistry({ ...base, accessConfigs: [{ type: 'BASIC_AUTH', uri: SECRET }] }, AT).problems).toEqual([]);
    expect(buildSchemaRegistry({ ...base, schemaRegistryUri: 'https://r', accessConfigs: [{ type: 'SERVER_ROOT_CA_CERTIFICATE', uri: CA }] }, AT).problems).toEqual([]);
  });

  it('allows BASIC_AUTH over plain http:// only to a loopback host', () => {
    const auth = [{ type: 'BASIC_AUTH' as const, uri: SECRET }];
    for (const uri of ['http://localhost:8081', 'http://127.0.0.1:8081/apis/ccompat/v7', 'http://[::1]:8081', 'https://registry.example.com']) {
      expect(buildSchemaRegistry({ ...base, schemaRegistryUri: uri, accessConfigs: auth }, AT).problems, uri).toEqual([]);
    }
    expect(buildSchemaRegistry({ ...base, schemaRegistryUri: 'http://registry.example.com:8081', accessConfigs: auth }, AT).problems).toEqual([
      `${AT}.schemaRegistryConfig.accessConfigs: BASIC_AUTH over plain http:// would send the password readable to anyone on the path; use an https:// schemaRegistryUri (plain http is accepted only for a loopback host such as 127.0.0.1 or localhost).`,
    ]);
    expect(buildSchemaRegistry({ ...base, schemaRegistryUri: 'http://127.0.0.1.evil.example:8081', accessConfigs: auth }, AT).problems).toHaveLength(1);
  });

  it('refuses a query string or fragment in the URL (an API key there would be logged), as it refuses user-info', () => {
    for (const uri of ['https://r:8081/api?apiKey=s3cret', 'https://r:8081/api#key']) {
      expect(buildSchemaRegistry({ ...base, schemaRegistryUri: uri }, AT).problems, uri).toEqual([
        `${AT}.schemaRegistryConfig.schemaRegistryUri: carries a query string or fragment (often an API key), which would be logged, put in failure headers and stored in the deployed task; give the registry's API base without it, and credentials as a BASIC_AUTH secret under accessConfigs.`,
      ]);
    }
  });
});

describe('schemaRegistryConfig schema', () => {
  it('accepts a URL and a Glue ARN as they are written', () => {
    const glue = { schemaRegistryUri: 'arn:aws:glue:eu-west-1:123456789012:registry/orders', eventRecordFormat: 'SOURCE', schemaValidationConfigs: [{ attribute: 'KEY' }, { attribute: 'VALUE' }] };
    expect(problemsOf(base)).toEqual([]);
    expect(problemsOf(glue)).toEqual([]);
    expect(problemsOf({ ...base, accessConfigs: [{ type: 'BASIC_AUTH', uri: SECRET }] })).toEqual([]);
    expect(checkSluiceEvent({ topic: 'orders', schemaRegistryConfig: glue }, AT).value?.schemaRegistryConfig).toEqual(glue);
  });

  it('requires eventRecordFormat, saying what it is', () => {
    const { eventRecordFormat: _, ...missing } = base;
    expect(problemsOf(missing)).toEqual([
      `${AT}.schemaRegistryConfig: missing required property "eventRecordFormat" (eventRecordFormat is JSON (the handler gets each decoded record as JSON text, base64 as always) or SOURCE (the original bytes without the registry's header)).`,
    ]);
    expect(problemsOf({ ...base, eventRecordFormat: 'AVRO' })[0]).toContain(`${AT}.schemaRegistryConfig.eventRecordFormat: must be one of JSON, SOURCE (got "AVRO").`);
  });

  it('refuses an attribute other than KEY or VALUE, and an empty or repeated list', () => {
    expect(problemsOf({ ...base, schemaValidationConfigs: [{ attribute: 'BODY' }] })).toEqual([
      `${AT}.schemaRegistryConfig.schemaValidationConfigs[0].attribute: must be one of KEY, VALUE (got "BODY"). attribute is KEY or VALUE.`,
    ]);
    expect(problemsOf({ ...base, schemaValidationConfigs: [] })[0]).toContain(`${AT}.schemaRegistryConfig.schemaValidationConfigs: must list at least 1 item(s) (got []).`);
    expect(problemsOf({ ...base, schemaValidationConfigs: [{ attribute: 'VALUE' }, { attribute: 'VALUE' }] })[0]).toContain('must NOT have duplicate items');
  });

  it('refuses a URI that is neither an http(s) URL nor a Glue registry ARN, pointing at an example of each', () => {
    for (const uri of ['ftp://registry', 'localhost:8081', 'arn:aws:glue:eu-west-1:12345:registry/orders', 'arn:aws:kafka:eu-west-1:123456789012:cluster/c/x']) {
      const [problem] = problemsOf({ ...base, schemaRegistryUri: uri });
      expect(problem).toContain(`${AT}.schemaRegistryConfig.schemaRegistryUri: must match`);
      expect(problem).toContain('e.g. http://localhost:8081, or a Glue registry\'s ARN, e.g. arn:aws:glue:eu-west-1:123456789012:registry/orders.');
    }
  });

  it('refuses an unknown access type, a uri that is not a secret ARN, and an unknown property', () => {
    expect(problemsOf({ ...base, accessConfigs: [{ type: 'BASIC', uri: SECRET }] })).toEqual([
      `${AT}.schemaRegistryConfig.accessConfigs[0].type: must be one of BASIC_AUTH, CLIENT_CERTIFICATE_TLS_AUTH, SERVER_ROOT_CA_CERTIFICATE (got "BASIC"). type is BASIC_AUTH, CLIENT_CERTIFICATE_TLS_AUTH or SERVER_ROOT_CA_CERTIFICATE.`,
    ]);
    expect(problemsOf({ ...base, accessConfigs: [{ type: 'BASIC_AUTH', uri: 'registry-auth' }] })[0]).toContain(`${AT}.schemaRegistryConfig.accessConfigs[0].uri: must match`);
    expect(problemsOf({ ...base, schemaRegistryURI: 'x' })[0]).toContain(`${AT}.schemaRegistryConfig: unknown property "schemaRegistryURI".`);
  });
});
