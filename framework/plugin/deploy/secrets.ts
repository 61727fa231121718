/**
 * The Secrets Manager secrets the poller's task role may read: exactly those the enabled
 * triggers declare, in `accessConfigurations` (SASL credentials, client certificate, root CA;
 * framework/config/access.ts) and in `schemaRegistryConfig.accessConfigs` (a registry URL's
 * basic auth, client certificate, root CA; framework/config/schema-registry.ts). None
 * declared: no secretsmanager statement at all.
 */
import type { TriggerSpec } from '../../config/types.ts';

/** Secrets Manager appends `-` and 6 characters to a secret's name in its ARN. */
const FULL_ARN = /:secret:.+-[A-Za-z0-9]{6}$/;

/** IAM resources for the declared secrets: sorted, without duplicates; enabled triggers only. */
export function declaredSecretArns(triggers: readonly TriggerSpec[]): string[] {
  const found = new Set<string>();
  for (const t of triggers) {
    if (!t.enabled) continue;
    const kafka = t.access;
    const registry = t.schemaRegistry?.access;
    const arns = [
      kafka?.sasl?.secretArn, kafka?.clientCertificateSecretArn, kafka?.rootCaSecretArn,
      registry?.basicAuthSecretArn, registry?.clientCertificateSecretArn, registry?.rootCaSecretArn,
    ];
    for (const arn of arns) if (arn !== undefined) found.add(iamResource(arn));
  }
  return [...found].sort();
}

/**
 * A full ARN as it is. A partial one (the name without its suffix, which GetSecretValue also
 * accepts) gets `-??????`: IAM matches ARNs, and `?` is exactly one character, so this matches
 * that one secret and not another whose name merely starts the same.
 */
export function iamResource(arn: string): string {
  return FULL_ARN.test(arn) ? arn : `${arn}-??????`;
}
