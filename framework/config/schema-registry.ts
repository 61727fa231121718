/**
 * `schemaRegistryConfig` on a `sluice:` event: AWS's Kafka event source mapping setting of the
 * same name (KafkaSchemaRegistryConfig), with its names in camelCase as the CDK writes them.
 * `schemaRegistryUri` is a Glue registry ARN or a Confluent-compatible registry's URL;
 * `accessConfigs` name Secrets Manager secrets (read like accessConfigurations) and are for a
 * URL only: Glue is reached with the AWS credentials. `buildSchemaRegistry` is pure.
 */
import { SECRET_ARN_PATTERN } from './access.ts';
import type { SchemaRegistrySpec } from './types.ts';

const GLUE_ARN = /^arn:(aws[a-z-]*):glue:([a-z0-9-]+):([0-9]{12}):registry\/([A-Za-z0-9_.#-]{1,255})$/;
const EXAMPLE_URL = 'http://localhost:8081';
const EXAMPLE_GLUE = 'arn:aws:glue:eu-west-1:123456789012:registry/orders';
const ACCESS_TYPES = ['BASIC_AUTH', 'CLIENT_CERTIFICATE_TLS_AUTH', 'SERVER_ROOT_CA_CERTIFICATE'] as const;
type AccessType = (typeof ACCESS_TYPES)[number];

export const schemaRegistryConfigSchema = {
  $comment: 'AWS: SelfManagedKafkaEventSourceConfig.SchemaRegistryConfig (AmazonManagedKafkaEventSourceConfig for MSK)',
  description:
    'schemaRegistryConfig decodes Avro, Protobuf and JSON Schema records with a schema registry before the handler, as AWS does, ' +
    `e.g. schemaRegistryConfig: { schemaRegistryUri: ${EXAMPLE_URL}, eventRecordFormat: JSON, schemaValidationConfigs: [{ attribute: VALUE }] }.`,
  type: 'object',
  properties: {
    schemaRegistryUri: {
      $comment: 'AWS: SchemaRegistryURI',
      description: `schemaRegistryUri is a Confluent-compatible registry's http(s) URL, e.g. ${EXAMPLE_URL}, or a Glue registry's ARN, e.g. ${EXAMPLE_GLUE}.`,
      type: 'string',
      minLength: 1,
      maxLength: 10000,
      pattern: `^(https?://[^\\s]+|${GLUE_ARN.source.slice(1, -1)})$`,
    },
    eventRecordFormat: {
      $comment: 'AWS: EventRecordFormat',
      description: 'eventRecordFormat is JSON (the handler gets each decoded record as JSON text, base64 as always) or SOURCE (the original bytes without the registry\'s header).',
      enum: ['JSON', 'SOURCE'],
    },
    schemaValidationConfigs: {
      $comment: 'AWS: SchemaValidationConfigs',
      description: 'schemaValidationConfigs lists the attributes to decode, e.g. [{ attribute: VALUE }] or [{ attribute: KEY }, { attribute: VALUE }].',
      type: 'array',
      minItems: 1,
      maxItems: 2,
      uniqueItems: true,
      items: {
        description: 'each schemaValidationConfigs entry is { attribute: KEY } or { attribute: VALUE }.',
        type: 'object',
        properties: { attribute: { description: 'attribute is KEY or VALUE.', $comment: 'AWS: SchemaValidationConfigs[].Attribute', enum: ['KEY', 'VALUE'] } },
        required: ['attribute'],
        additionalProperties: false,
      },
    },
    accessConfigs: {
      $comment: 'AWS: AccessConfigs',
      description:
        'accessConfigs lists up to two { type, uri } entries for a registry URL: type BASIC_AUTH (a secret of {"username", "password"}), ' +
        'CLIENT_CERTIFICATE_TLS_AUTH ({"certificate", "privateKey", "privateKeyPassword"?}) or SERVER_ROOT_CA_CERTIFICATE ({"certificate"}), uri the secret\'s ARN.',
      type: 'array',
      minItems: 1,
      maxItems: 2,
      items: {
        description: 'each accessConfigs entry is { type: BASIC_AUTH | CLIENT_CERTIFICATE_TLS_AUTH | SERVER_ROOT_CA_CERTIFICATE, uri: <Secrets Manager secret ARN> }.',
        type: 'object',
        properties: {
          type: { description: 'type is BASIC_AUTH, CLIENT_CERTIFICATE_TLS_AUTH or SERVER_ROOT_CA_CERTIFICATE.', $comment: 'AWS: AccessConfigs[].Type', enum: [...ACCESS_TYPES] },
          uri: { description: 'uri is the ARN of the Secrets Manager secret, e.g. arn:aws:secretsmanager:eu-west-1:123456789012:secret:registry-auth.', $comment: 'AWS: AccessConfigs[].URI', type: 'string', pattern: SECRET_ARN_PATTERN },
        },
        required: ['type', 'uri'],
        additionalProperties: false,
      },
    },
  },
  required: ['schemaRegistryUri', 'eventRecordFormat', 'schemaValidationConfigs'],
  additionalProperties: false,
} as const;

/** `schemaRegistryConfig` as the schema admits it. */
export interface SchemaRegistryConfigInput {
  schemaRegistryUri: string;
  eventRecordFormat: 'JSON' | 'SOURCE';
  schemaValidationConfigs: Array<{ attribute: 'KEY' | 'VALUE' }>;
  accessConfigs?: Array<{ type: AccessType; uri: string }>;
}

/** Pure: the validated setting -> the trigger's `schemaRegistry`, with the cross-field problems. */
export function buildSchemaRegistry(input: SchemaRegistryConfigInput, path: string): { spec: SchemaRegistrySpec; problems: string[] } {
  const at = `${path}.schemaRegistryConfig`;
  const problems: string[] = [];
  const glue = GLUE_ARN.exec(input.schemaRegistryUri);
  const attributes = new Set(input.schemaValidationConfigs.map((c) => c.attribute));
  const access: SchemaRegistrySpec['access'] = {};
  const seen = new Set<AccessType>();
  for (const { type, uri } of input.accessConfigs ?? []) {
    if (seen.has(type)) problems.push(`${at}.accessConfigs: names ${type} twice; keep one.`);
    seen.add(type);
    if (type === 'BASIC_AUTH') access.basicAuthSecretArn = uri;
    else if (type === 'CLIENT_CERTIFICATE_TLS_AUTH') access.clientCertificateSecretArn = uri;
    else access.rootCaSecretArn = uri;
  }
  if (glue && input.accessConfigs?.length) {
    problems.push(`${at}.accessConfigs: a Glue registry is reached with the AWS credentials (glue:GetSchemaVersion), not with secrets; remove accessConfigs.`);
  }
  if (!glue && input.schemaRegistryUri.startsWith('http:') && (access.clientCertificateSecretArn || access.rootCaSecretArn)) {
    problems.push(`${at}.accessConfigs: CLIENT_CERTIFICATE_TLS_AUTH and SERVER_ROOT_CA_CERTIFICATE need TLS; use an https:// schemaRegistryUri, or remove them.`);
  }
  if (!glue && /^https?:\/\/[^/]*@/.test(input.schemaRegistryUri)) {
    problems.push(`${at}.schemaRegistryUri: carries a user name or password in the URL, which would be logged and stored in the deployed task; put them in a BASIC_AUTH secret under accessConfigs instead.`);
  }
  if (!glue && /[?#]/.test(input.schemaRegistryUri)) {
    problems.push(`${at}.schemaRegistryUri: carries a query string or fragment (often an API key), which would be logged, put in failure headers and stored in the deployed task; give the registry's API base without it, and credentials as a BASIC_AUTH secret under accessConfigs.`);
  }
  if (!glue && access.basicAuthSecretArn && input.schemaRegistryUri.startsWith('http:') && !isLoopback(input.schemaRegistryUri)) {
    problems.push(`${at}.accessConfigs: BASIC_AUTH over plain http:// would send the password readable to anyone on the path; use an https:// schemaRegistryUri (plain http is accepted only for a loopback host such as 127.0.0.1 or localhost).`);
  }
  const spec: SchemaRegistrySpec = {
    uri: input.schemaRegistryUri,
    ...(glue ? { glue: { partition: glue[1]!, region: glue[2]!, accountId: glue[3]!, registryName: glue[4]! } } : {}),
    format: input.eventRecordFormat,
    key: attributes.has('KEY'),
    value: attributes.has('VALUE'),
    access,
  };
  return { spec, problems };
}

/** A URL whose host is this machine: localhost, 127.0.0.0/8 or [::1]. */
function isLoopback(uri: string): boolean {
  try {
    const host = new URL(uri).hostname;
    return host === 'localhost' || host === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
  } catch {
    return false;
  }
}
