/**
 * The one line for brokers that refuse an MSK IAM token: it names the trigger, what the broker
 * said and what to check, and never the token (tokens handed out are cut from the cause).
 */
import type { TriggerSpec } from '../../config/types.ts';
import { ConfigError } from '../../errors.ts';
import { describeCause, isAuthenticationFailure } from './client.ts';
import { redactor } from '../security.ts';

/** `e` unchanged unless the brokers refused the SASL/OAUTHBEARER handshake. */
export function iamTokenRefused(trigger: Pick<TriggerSpec, 'path' | 'access'>, brokers: string[], e: unknown, tokens: readonly string[]): unknown {
  const cause = e instanceof Error && isAuthenticationFailure(e.cause) ? e.cause : isAuthenticationFailure(e) ? e : undefined;
  if (cause === undefined) return e;
  const said = redactor(tokens)(describeCause(cause)).replace(/\s+/g, ' ');
  const cluster = trigger.access?.iam?.clusterArn ?? 'the cluster';
  return new ConfigError(
    `${trigger.path}: Kafka at ${brokers.join(',')} refused the MSK IAM token (${said}). ` +
      `Check that the AWS credentials' role is allowed kafka-cluster:Connect on ${cluster}, that the cluster has IAM access control on, ` +
      'and that bootstrapServers are its IAM brokers (port 9098; 9198 for public access).',
    { cause: e },
  );
}
