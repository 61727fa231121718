import { describe, expect, it } from 'vitest';
import { isConfigError } from '../errors.ts';
import { defaultSecretSource, envSecrets, parseSecretArn, secretEnvName, secretsManagerSecrets, type SecretsManagerLike } from './secrets.ts';

const ARN = 'arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-alice-AbC123';
const SHAPE = '{"username": "…", "password": "…"}';
const SASL = JSON.stringify({ username: 'alice', password: 'alice-secret' });

async function failure(p: Promise<unknown>): Promise<Error> {
  try {
    await p;
  } catch (e) {
    expect(isConfigError(e)).toBe(true);
    return e as Error;
  }
  throw new Error('expected a ConfigError');
}

describe('secret names', () => {
  it('drops the 6-character suffix of a secret ARN, and upper-cases the rest into SLUICE_SECRET_<NAME>', () => {
    expect(parseSecretArn(ARN)).toEqual({ region: 'eu-west-1', name: 'kafka-alice-AbC123', suffixless: 'kafka-alice' });
    expect(parseSecretArn('arn:aws-cn:secretsmanager:cn-north-1:123456789012:secret:prod/kafka.alice')?.suffixless).toBe('prod/kafka.alice');
    expect(parseSecretArn('arn:aws:sqs:eu-west-1:123456789012:q')).toBeUndefined();
    expect(secretEnvName('kafka-alice')).toBe('SLUICE_SECRET_KAFKA_ALICE');
    expect(secretEnvName('prod/kafka.alice@x')).toBe('SLUICE_SECRET_PROD_KAFKA_ALICE_X');
  });
});

describe('envSecrets', () => {
  it('reads the secret of an ARN, with or without its suffix, from SLUICE_SECRET_<NAME>', async () => {
    const env = { SLUICE_SECRET_KAFKA_ALICE: SASL };
    await expect(envSecrets(env).read(ARN, SHAPE)).resolves.toBe(SASL);
    await expect(envSecrets(env).read('arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-alice', SHAPE)).resolves.toBe(SASL);
  });

  it('also reads the variable of the full name, for a name that only looks suffixed', async () => {
    const env = { SLUICE_SECRET_KAFKA_ALICE_AUTH01: SASL };
    await expect(envSecrets(env).read('arn:aws:secretsmanager:eu-west-1:123456789012:secret:kafka-alice-auth01', SHAPE)).resolves.toBe(SASL);
  });

  it('names the ARN, the variable to set and the JSON it holds when the variable is missing', async () => {
    const e = await failure(envSecrets({ SLUICE_SECRET_KAFKA_ALICE: ' ' }).read(ARN, SHAPE));
    expect(e.message).toBe(
      `no value for the secret ${ARN}: set the environment variable SLUICE_SECRET_KAFKA_ALICE to the secret's JSON, ${SHAPE} ` +
        '(or SLUICE_SECRET_KAFKA_ALICE_ABC123). Locally, Sluice reads secrets from the environment; in AWS (SLUICE_SECRETS=secretsmanager) from Secrets Manager.',
    );
  });
});

describe('secretsManagerSecrets', () => {
  const client = (answer: () => Promise<unknown>): SecretsManagerLike & { asked: unknown[] } => {
    const asked: unknown[] = [];
    return { asked, send: async (command) => (asked.push(command.input), answer() as never) };
  };

  it('returns SecretString, or SecretBinary as UTF-8, asking by ARN', async () => {
    const text = client(async () => ({ SecretString: SASL }));
    await expect(secretsManagerSecrets(text).read(ARN, SHAPE)).resolves.toBe(SASL);
    expect(text.asked).toEqual([{ SecretId: ARN }]);
    const binary = client(async () => ({ SecretBinary: new TextEncoder().encode(SASL) }));
    await expect(secretsManagerSecrets(binary).read(ARN, SHAPE)).resolves.toBe(SASL);
  });

  it('says what the role needs when Secrets Manager refuses, and what to store when it is empty', async () => {
    const denied = client(async () => {
      throw Object.assign(new Error('User is not authorized to perform secretsmanager:GetSecretValue'), { name: 'AccessDeniedException' });
    });
    const e = await failure(secretsManagerSecrets(denied).read(ARN, SHAPE));
    expect(e.message).toContain(`cannot read the secret ${ARN} from Secrets Manager (AccessDeniedException: User is not authorized`);
    expect(e.message).toContain('needs secretsmanager:GetSecretValue on it');
    expect((await failure(secretsManagerSecrets(client(async () => ({}))).read(ARN, SHAPE))).message).toBe(`the secret ${ARN} in Secrets Manager is empty. Store ${SHAPE} in it.`);
  });
});

describe('defaultSecretSource', () => {
  it('reads the environment unless SLUICE_SECRETS says secretsmanager, and refuses anything else', async () => {
    await expect(defaultSecretSource({ SLUICE_SECRET_KAFKA_ALICE: SASL }).read(ARN, SHAPE)).resolves.toBe(SASL);
    expect(() => defaultSecretSource({ SLUICE_SECRETS: 'secretsmanager' })).not.toThrow();
    expect(() => defaultSecretSource({ SLUICE_SECRETS: 'vault' })).toThrow(/SLUICE_SECRETS must be env or secretsmanager \(got "vault"\)/);
  });
});
