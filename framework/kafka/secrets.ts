/**
 * Where the secrets named in `accessConfigurations` come from: the environment on a laptop or in
 * CI (`envSecrets`), AWS Secrets Manager in the deployed container (`secretsManagerSecrets`).
 * A source returns the secret's text as stored, the same JSON in both; security.ts reads it.
 * Messages name the ARN, the variable and the shape, never a value.
 */
import type { GetSecretValueCommand, GetSecretValueCommandOutput } from '@aws-sdk/client-secrets-manager';
import { ConfigError, isConfigError } from '../errors.ts';

export interface SecretSource {
  /**
   * The secret's text (Secrets Manager's SecretString). `shape` is the JSON it must hold,
   * e.g. `{"username": "…", "password": "…"}`, for the message when it cannot be read.
   */
  read(arn: string, shape: string): Promise<string>;
}

/** What secretsManagerSecrets needs of a `SecretsManagerClient`. */
export interface SecretsManagerLike {
  send(command: GetSecretValueCommand): Promise<GetSecretValueCommandOutput>;
}

type Env = Record<string, string | undefined>;

/** `arn:aws:secretsmanager:<region>:<account>:secret:<name>[-<6 chars>]` -> its parts; undefined for anything else. */
export function parseSecretArn(arn: string): { region: string; name: string; suffixless: string } | undefined {
  const match = /^arn:aws[a-z-]*:secretsmanager:([a-z0-9-]+):[0-9]{12}:secret:(.+)$/.exec(arn);
  if (!match) return undefined;
  const name = match[2]!;
  return { region: match[1]!, name, suffixless: name.replace(/-[A-Za-z0-9]{6}$/, '') };
}

/** `SLUICE_SECRET_<NAME>`: the name upper-cased, every other character than a letter or a digit `_`. */
export function secretEnvName(name: string): string {
  return `SLUICE_SECRET_${name.toUpperCase().replace(/[^A-Z0-9]/g, '_')}`;
}

/**
 * Secrets from `SLUICE_SECRET_<NAME>`, where NAME is the secret's name without the 6-character
 * suffix Secrets Manager appends to its ARNs (`kafka-alice-AbC123` -> SLUICE_SECRET_KAFKA_ALICE);
 * the variable of the full name is read too, for a name that ends like a suffix.
 */
export function envSecrets(env: Env = process.env): SecretSource {
  return {
    async read(arn, shape) {
      const parsed = parseSecretArn(arn);
      if (!parsed) throw new ConfigError(`"${arn}" is not a Secrets Manager secret ARN. Use arn:aws:secretsmanager:<region>:<account>:secret:<name>.`);
      const names = [...new Set([secretEnvName(parsed.suffixless), secretEnvName(parsed.name)])];
      for (const name of names) {
        const value = env[name];
        if (value !== undefined && value.trim() !== '') return value;
      }
      throw new ConfigError(
        `no value for the secret ${arn}: set the environment variable ${names[0]} to the secret's JSON, ${shape}` +
          `${names.length > 1 ? ` (or ${names[1]})` : ''}. Locally, Sluice reads secrets from the environment; ` +
          'in AWS (SLUICE_SECRETS=secretsmanager) from Secrets Manager.',
      );
    },
  };
}

/** Secrets from AWS Secrets Manager (`GetSecretValue`), for the deployed poller. */
export function secretsManagerSecrets(client: SecretsManagerLike): SecretSource {
  return {
    async read(arn, shape) {
      const { GetSecretValueCommand } = await import('@aws-sdk/client-secrets-manager');
      let out: GetSecretValueCommandOutput;
      try {
        out = await client.send(new GetSecretValueCommand({ SecretId: arn }));
      } catch (e) {
        const name = e instanceof Error ? e.name : 'Error';
        throw new ConfigError(
          `cannot read the secret ${arn} from Secrets Manager (${name}: ${e instanceof Error ? e.message : String(e)}). ` +
            'It must exist in the service\'s region, and the poller\'s role needs secretsmanager:GetSecretValue on it (and kms:Decrypt on its key).',
          { cause: e },
        );
      }
      const text = out.SecretString ?? (out.SecretBinary ? Buffer.from(out.SecretBinary).toString('utf8') : undefined);
      if (text === undefined || text.trim() === '') throw new ConfigError(`the secret ${arn} in Secrets Manager is empty. Store ${shape} in it.`);
      return text;
    },
  };
}

/**
 * The source for this process: Secrets Manager when SLUICE_SECRETS=secretsmanager (the deployed
 * container), else the environment. The Secrets Manager client uses the SDK's usual region and
 * credentials (AWS_REGION, the task role).
 */
export function defaultSecretSource(env: Env = process.env): SecretSource {
  const kind = env['SLUICE_SECRETS']?.trim().toLowerCase() || 'env';
  if (kind === 'env') return envSecrets(env);
  if (kind !== 'secretsmanager') {
    throw new ConfigError(`SLUICE_SECRETS must be env or secretsmanager (got "${env['SLUICE_SECRETS']}"). Leave it unset to read secrets from SLUICE_SECRET_<NAME> variables.`);
  }
  let client: Promise<SecretsManagerLike> | undefined;
  const connect = () => (client ??= import('@aws-sdk/client-secrets-manager').then((m) => new m.SecretsManagerClient({})));
  return secretsManagerSecrets({ send: async (command) => (await connect()).send(command) });
}

/** The JSON each kind of secret holds, for messages. */
export const SECRET_SHAPES = {
  sasl: '{"username": "…", "password": "…"}',
  clientCertificate: '{"certificate": "-----BEGIN CERTIFICATE-----…", "privateKey": "-----BEGIN PRIVATE KEY-----…", "privateKeyPassword": "…" (optional)}',
  rootCa: '{"certificate": "-----BEGIN CERTIFICATE-----…"}',
} as const;

/**
 * A secret's JSON object with its `required` and `optional` string fields; every failure is a
 * ConfigError at `where` that names the ARN and the shape, never the secret's text.
 */
export async function readSecretJson(
  secrets: SecretSource,
  arn: string,
  shape: string,
  where: string,
  required: readonly string[],
  optional: readonly string[],
): Promise<Record<string, string>> {
  let text: string;
  try {
    text = await secrets.read(arn, shape);
  } catch (e) {
    if (isConfigError(e)) throw new ConfigError(`${where}: ${e.message}`, { cause: e });
    throw e;
  }
  const wrong = (what: string) => new ConfigError(`${where}: the secret ${arn} ${what}. It must hold ${shape}.`);
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // JSON.parse's own message quotes the text, which is the secret: never pass it on.
    throw wrong('is not JSON');
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw wrong('is not a JSON object');
  const object = value as Record<string, unknown>;
  const missing = required.filter((key) => typeof object[key] !== 'string' || object[key] === '');
  if (missing.length) throw wrong(`has no ${missing.map((k) => `"${k}"`).join(' or ')} string`);
  const badOptional = optional.filter((key) => object[key] !== undefined && typeof object[key] !== 'string');
  if (badOptional.length) throw wrong(`has a ${badOptional.map((k) => `"${k}"`).join(' and ')} that is not a string`);
  return Object.fromEntries([...required, ...optional].filter((key) => typeof object[key] === 'string').map((key) => [key, object[key] as string]));
}
