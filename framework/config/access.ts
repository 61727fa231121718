/**
 * `accessConfigurations` on a `sluice:` event: how the trigger's Kafka clients authenticate.
 * The names are those of the Serverless Framework's `kafka` event, each a Secrets Manager
 * secret ARN (a string, or a list of one as the `kafka` event writes it); `vpcSubnet` and
 * `vpcSecurityGroup` are accepted and read past (the poller runs where its network reaches the
 * brokers). Plus Sluice's own `tls` beside it. The schema fragments here are spread into
 * schema.ts; `buildAccess` is pure and resolves nothing (framework/kafka/security.ts does).
 */
import { showValue } from './path.ts';
import type { KafkaAccess, SaslMechanism } from './types.ts';

export const SECRET_ARN_PATTERN = '^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:[0-9]{12}:secret:[A-Za-z0-9/_+=.@-]+$';
const EXAMPLE_ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-alice';

/** The SASL properties and the mechanism each one means; a trigger sets at most one. */
export const SASL_PROPERTIES = {
  saslPlainAuth: 'plain',
  saslScram256Auth: 'scram-sha-256',
  saslScram512Auth: 'scram-sha-512',
} as const satisfies Record<string, SaslMechanism>;
type SaslProperty = keyof typeof SASL_PROPERTIES;

const SECRET_PROPERTIES = [...(Object.keys(SASL_PROPERTIES) as SaslProperty[]), 'clientCertificateTlsAuth', 'serverRootCaCertificate'] as const;
type SecretProperty = (typeof SECRET_PROPERTIES)[number];

const SECRET_DESCRIPTIONS: Record<SecretProperty, string> = {
  saslPlainAuth: `saslPlainAuth is the ARN (or a list of one) of a Secrets Manager secret holding {"username", "password"} for SASL/PLAIN, e.g. ${EXAMPLE_ARN}.`,
  saslScram256Auth: `saslScram256Auth is the ARN (or a list of one) of a Secrets Manager secret holding {"username", "password"} for SASL/SCRAM-SHA-256, e.g. ${EXAMPLE_ARN}.`,
  saslScram512Auth: `saslScram512Auth is the ARN (or a list of one) of a Secrets Manager secret holding {"username", "password"} for SASL/SCRAM-SHA-512, e.g. ${EXAMPLE_ARN}.`,
  clientCertificateTlsAuth:
    `clientCertificateTlsAuth is the ARN (or a list of one) of a Secrets Manager secret holding {"certificate", "privateKey", "privateKeyPassword"?} (PEM) for mutual TLS, e.g. ${EXAMPLE_ARN}.`,
  serverRootCaCertificate:
    `serverRootCaCertificate is the ARN (or a list of one) of a Secrets Manager secret holding {"certificate"} (PEM), the CA that signed the brokers' certificates, e.g. ${EXAMPLE_ARN}.`,
};

function secretArnSchema(description: string, aws: string) {
  const arn = { description, type: 'string', pattern: SECRET_ARN_PATTERN } as const;
  return { description, $comment: `AWS: SourceAccessConfigurations[].Type ${aws}`, anyOf: [arn, { description, type: 'array', minItems: 1, maxItems: 1, items: arn }] } as const;
}

function idList(name: string, prefix: string, aws: string) {
  const description = `${name} lists ${prefix}… ids as on the kafka event; Sluice accepts and ignores it (the poller runs where its network reaches the brokers).`;
  return { description, $comment: `AWS: SourceAccessConfigurations[].Type ${aws}`, type: 'array', minItems: 1, items: { description, type: 'string', pattern: `^${prefix}[a-z0-9]+$` } } as const;
}

const pairs = (names: readonly string[]) => names.flatMap((a, i) => names.slice(i + 1).map((b) => ({ required: [a, b] })));

export const accessConfigurationsSchema = {
  $comment: 'AWS: SourceAccessConfigurations',
  description:
    'accessConfigurations names the Secrets Manager secrets the trigger authenticates with, as on the kafka event, ' +
    `e.g. accessConfigurations: { saslScram512Auth: ${EXAMPLE_ARN} }; locally each secret's JSON comes from SLUICE_SECRET_<NAME>.`,
  type: 'object',
  properties: {
    saslPlainAuth: secretArnSchema(SECRET_DESCRIPTIONS.saslPlainAuth, 'BASIC_AUTH'),
    saslScram256Auth: secretArnSchema(SECRET_DESCRIPTIONS.saslScram256Auth, 'SASL_SCRAM_256_AUTH'),
    saslScram512Auth: secretArnSchema(SECRET_DESCRIPTIONS.saslScram512Auth, 'SASL_SCRAM_512_AUTH'),
    clientCertificateTlsAuth: secretArnSchema(SECRET_DESCRIPTIONS.clientCertificateTlsAuth, 'CLIENT_CERTIFICATE_TLS_AUTH'),
    serverRootCaCertificate: secretArnSchema(SECRET_DESCRIPTIONS.serverRootCaCertificate, 'SERVER_ROOT_CA_CERTIFICATE'),
    vpcSubnet: idList('vpcSubnet', 'subnet-', 'VPC_SUBNET'),
    vpcSecurityGroup: idList('vpcSecurityGroup', 'sg-', 'VPC_SECURITY_GROUP'),
  },
  additionalProperties: false,
  // Cross-field rule: one SASL mechanism at most (validate.ts words this `not`).
  not: { anyOf: pairs(Object.keys(SASL_PROPERTIES)) },
} as const;

export const tlsSchema = {
  description:
    'tls is true or false: connect to the brokers with TLS. It defaults to true when accessConfigurations sets SASL, ' +
    'a client certificate or a root CA (AWS uses SASL only over TLS), else false; set tls: false for a SASL_PLAINTEXT listener such as a local broker.',
  type: 'boolean',
} as const;

/** `accessConfigurations` as the schema admits it. */
export type AccessConfigurationsInput = Partial<Record<SecretProperty, string | string[]>> & {
  vpcSubnet?: string[];
  vpcSecurityGroup?: string[];
};

/** The more-than-one-SASL message (validate.ts, for the schema's `not`). */
export function saslConflict(where: string, access: Record<string, unknown>): string {
  const set = Object.keys(SASL_PROPERTIES).filter((name) => access[name] !== undefined);
  return `${where}: sets ${set.join(' and ')}; a trigger authenticates with one SASL mechanism. Keep one of them.`;
}

/** Wording of pattern and anyOf errors for validate.ts, keyed by where the value sits in the event. */
export const ACCESS_PATTERN_WORDING: Readonly<Record<string, () => string>> = Object.fromEntries([
  ...SECRET_PROPERTIES.flatMap((p) => [`accessConfigurations.${p}`, `accessConfigurations.${p}[]`]).map((k) => [k, () => 'must be a Secrets Manager secret ARN']),
  ['accessConfigurations.vpcSubnet[]', () => 'must be a subnet id, subnet-…'],
  ['accessConfigurations.vpcSecurityGroup[]', () => 'must be a security group id, sg-…'],
]);
export const ACCESS_ANY_OF_WORDING: Readonly<Record<string, string>> = Object.fromEntries(
  SECRET_PROPERTIES.map((p) => [`accessConfigurations.${p}`, 'must be a secret ARN, or a list of one']),
);

/**
 * How a trigger reaches an MSK cluster (msk.ts): `clusterArn` from its `arn` (unset for an
 * emulated `msk` event whose `arn` is a CloudFormation reference); `localBroker` when its brokers
 * are the local broker that `npm start` runs, which has no IAM.
 */
export interface MskTarget {
  clusterArn: string | undefined;
  localBroker: boolean;
}

/**
 * Pure: the validated settings -> the trigger's `access` (undefined: plain, unauthenticated).
 * An MSK trigger with no SASL secret and no client certificate uses IAM, as AWS's MSK event
 * source mapping does without SourceAccessConfigurations; always over TLS.
 */
export function buildAccess(
  event: { accessConfigurations?: AccessConfigurationsInput; tls?: boolean },
  path: string,
  msk?: MskTarget,
): { access: KafkaAccess | undefined; problems: string[] } {
  const input = event.accessConfigurations ?? {};
  const arn = (name: SecretProperty): string | undefined => {
    const value = input[name];
    return Array.isArray(value) ? value[0] : value;
  };
  const saslName = (Object.keys(SASL_PROPERTIES) as SaslProperty[]).find((name) => arn(name) !== undefined);
  const clientCertificateSecretArn = arn('clientCertificateTlsAuth');
  const rootCaSecretArn = arn('serverRootCaCertificate');
  const iam = msk !== undefined && !msk.localBroker && saslName === undefined && clientCertificateSecretArn === undefined;
  const secured = iam || saslName !== undefined || clientCertificateSecretArn !== undefined || rootCaSecretArn !== undefined;
  const tls = iam || (event.tls ?? secured);
  const problems: string[] = [];
  if (iam && event.tls === false) {
    problems.push(
      `${path}.tls: false contradicts MSK IAM authentication (the trigger names an MSK cluster with arn and no SASL secret or client certificate), ` +
        'which only works over TLS, as on AWS. Remove tls: false, or set accessConfigurations.saslScram512Auth to read the cluster with SASL/SCRAM instead.',
    );
  }
  const tlsOnly = (['clientCertificateTlsAuth', 'serverRootCaCertificate'] as const).filter((name) => arn(name) !== undefined);
  if (event.tls === false && tlsOnly.length > 0) {
    problems.push(
      `${path}.tls: false contradicts accessConfigurations.${tlsOnly.join(' and ')}, which only work over TLS (got ${showValue(event.tls)}). ` +
        `Remove tls: false, or remove ${tlsOnly.join(' and ')}.`,
    );
  }
  if (!secured && !tls) return { access: undefined, problems };
  const access: KafkaAccess = { tls };
  if (iam) access.iam = msk.clusterArn === undefined ? {} : { clusterArn: msk.clusterArn };
  if (saslName !== undefined) access.sasl = { mechanism: SASL_PROPERTIES[saslName], secretArn: arn(saslName)! };
  if (clientCertificateSecretArn !== undefined) access.clientCertificateSecretArn = clientCertificateSecretArn;
  if (rootCaSecretArn !== undefined) access.rootCaSecretArn = rootCaSecretArn;
  return { access, problems };
}
