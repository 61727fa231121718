/**
 * A trigger's schema registry, ready to decode: the kind AWS infers from `schemaRegistryUri`
 * (a Glue ARN or a registry URL), its `accessConfigs` secrets read once at start (a missing one
 * fails the start with its name), lookups cached by schema id.
 */
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import type { SchemaRegistrySpec } from '../config/types.ts';
import { readSecretJson, SECRET_SHAPES, type SecretSource } from '../kafka/secrets.ts';
import { confluentRegistry } from './confluent-registry.ts';
import { RecordDecoder } from './decoder.ts';
import type { HttpSettings } from './http-get.ts';
import { cachedRegistry, type SchemaRegistry } from './registry.ts';

export { RecordDecoder, type Decoded } from './decoder.ts';
export { RegistryUnavailableError } from './registry.ts';

/** The longest one request of a lookup may take, to its last byte; the partition waits and asks again after it. */
export const LOOKUP_TIMEOUT_MS = INPUT_BOUNDS.registryRequestDeadlineMs;

export async function createRecordDecoder(spec: SchemaRegistrySpec, o: { path: string; filters: boolean; secrets: SecretSource }): Promise<RecordDecoder> {
  // The Glue client (the AWS SDK's) is loaded only for a Glue registry.
  const registry: SchemaRegistry = spec.glue
    ? (await import('./glue-registry.ts')).glueRegistry({ ...spec, glue: spec.glue }, LOOKUP_TIMEOUT_MS)
    : confluentRegistry(spec.uri, await httpSettings(spec, o.path, o.secrets));
  const grace = Number(process.env['SLUICE_SCHEMA_NOT_FOUND_GRACE_SECONDS']);
  return new RecordDecoder({
    registry: cachedRegistry(registry), format: spec.format, key: spec.key, value: spec.value, filters: o.filters,
    ...(process.env['SLUICE_SCHEMA_NOT_FOUND_GRACE_SECONDS'] && Number.isFinite(grace) && grace >= 0 ? { notFoundGraceMs: grace * 1000 } : {}),
  });
}

/** How a trigger's registry is asked: its accessConfigs' secrets read (basic auth, CA, client certificate). */
export async function httpSettings(spec: SchemaRegistrySpec, path: string, secrets: SecretSource): Promise<HttpSettings> {
  const at = `${path}.schemaRegistryConfig.accessConfigs`;
  const settings: HttpSettings = { timeoutMs: LOOKUP_TIMEOUT_MS, maxBodyBytes: INPUT_BOUNDS.maxRegistryAnswerBytes };
  const { basicAuthSecretArn, clientCertificateSecretArn, rootCaSecretArn } = spec.access;
  if (basicAuthSecretArn) {
    const f = await readSecretJson(secrets, basicAuthSecretArn, SECRET_SHAPES.sasl, `${at} BASIC_AUTH`, ['username', 'password'], []);
    settings.basicAuth = { username: f.username!, password: f.password! };
  }
  if (rootCaSecretArn) {
    settings.ca = (await readSecretJson(secrets, rootCaSecretArn, SECRET_SHAPES.rootCa, `${at} SERVER_ROOT_CA_CERTIFICATE`, ['certificate'], [])).certificate!;
  }
  if (clientCertificateSecretArn) {
    const f = await readSecretJson(secrets, clientCertificateSecretArn, SECRET_SHAPES.clientCertificate, `${at} CLIENT_CERTIFICATE_TLS_AUTH`, ['certificate', 'privateKey'], ['privateKeyPassword']);
    settings.cert = f.certificate!;
    settings.key = f.privateKey!;
    if (f.privateKeyPassword !== undefined) settings.passphrase = f.privateKeyPassword;
  }
  return settings;
}
