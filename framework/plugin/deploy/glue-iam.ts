/**
 * Pure: the task role's `glue:*` statements for triggers whose `schemaRegistryConfig` names a
 * Glue registry (framework/schema/glue-registry.ts looks each record's schema version up with
 * GetSchemaVersion). The same grant as AWS's CDK gives a Lambda for its Glue schema registry
 * binding: GetRegistry on the registry, GetSchemaVersion on the registry and on its schemas
 * (`schema/<registryName>/*`; IAM checks both for a lookup by SchemaVersionId). The ARNs are
 * built from each registry ARN's own partition, region and account, not the stack's: a
 * registry in another region or account is granted where it is. Nothing else: no other
 * registry, no write action.
 */
import type { SchemaRegistrySpec, TriggerSpec } from '../../config/types.ts';
import type { Statement } from './iam.ts';

type Glue = NonNullable<SchemaRegistrySpec['glue']>;

export function glueRegistryStatements(triggers: readonly TriggerSpec[]): Statement[] {
  const registries = new Map<string, Glue>();
  for (const t of triggers) {
    const glue = t.enabled ? t.schemaRegistry?.glue : undefined;
    if (glue) registries.set(registryArn(glue), glue);
  }
  if (registries.size === 0) return [];
  const arns = [...registries.keys()];
  const schemas = arns.map((arn) => schemasArn(registries.get(arn)!));
  return [
    { Sid: 'GlueGetRegistry', Effect: 'Allow', Action: ['glue:GetRegistry'], Resource: arns },
    { Sid: 'GlueGetSchemaVersion', Effect: 'Allow', Action: ['glue:GetSchemaVersion'], Resource: [...arns, ...schemas] },
  ];
}

function registryArn(g: Glue): string {
  return `arn:${g.partition}:glue:${g.region}:${g.accountId}:registry/${g.registryName}`;
}

/** Every schema of the registry: the config's ARN pattern admits no `*` or `?` in the name, so this wildcard is the only one. */
function schemasArn(g: Glue): string {
  return `arn:${g.partition}:glue:${g.region}:${g.accountId}:schema/${g.registryName}/*`;
}
