/**
 * An AWS Glue schema registry, by the AWS SDK's Glue client: `GetSchemaVersion` by the record's
 * schema version UUID, with the credentials and endpoint of the SDK's usual chain (AWS_REGION,
 * AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_GLUE, the task role). A version that belongs to a schema
 * of another registry counts as not found: the trigger names one registry, as on AWS. Under the
 * deployed task's grant (plugin/deploy/glue-iam.ts: this registry and its schemas only) such a
 * version is not answered but denied, and counts as not found the same way (glueDenial).
 */
import { GetSchemaVersionCommand, GlueClient } from '@aws-sdk/client-glue';
import type { SchemaRegistrySpec } from '../config/types.ts';
import { RegistryUnavailableError, SchemaNotFoundError, type DataFormat, type SchemaRegistry } from './registry.ts';

const FORMATS: readonly string[] = ['AVRO', 'PROTOBUF', 'JSON'];

type Glue = NonNullable<SchemaRegistrySpec['glue']>;

export function glueRegistry(spec: SchemaRegistrySpec & { glue: Glue }, timeoutMs: number): SchemaRegistry {
  const client = new GlueClient({ region: spec.glue.region, maxAttempts: 2 });
  const schemaPrefix = `arn:${spec.glue.partition}:glue:${spec.glue.region}:${spec.glue.accountId}:schema/${spec.glue.registryName}/`;
  return {
    uri: spec.uri,
    kind: 'glue',
    async lookup(schemaId) {
      let answer;
      try {
        answer = await client.send(new GetSchemaVersionCommand({ SchemaVersionId: schemaId }), { abortSignal: AbortSignal.timeout(timeoutMs) });
      } catch (e) {
        const name = (e as { name?: string }).name;
        const message = (e as Error).message;
        if (name === 'EntityNotFoundException') throw new SchemaNotFoundError(schemaId, spec.uri, `GetSchemaVersion: ${message}`);
        if (glueDenial(name, message, spec.glue) === 'another registry') {
          throw new SchemaNotFoundError(schemaId, spec.uri, `GetSchemaVersion was denied (${name}: ${message}); the role may read this registry's versions only, so the version is another registry's`);
        }
        throw new RegistryUnavailableError(spec.uri, `GetSchemaVersion ${schemaId}: ${name ?? ''} ${message}`.trim(), e);
      }
      if (answer.SchemaArn && !answer.SchemaArn.startsWith(schemaPrefix)) {
        throw new SchemaNotFoundError(schemaId, spec.uri, `the version belongs to ${answer.SchemaArn}, a schema of another registry`);
      }
      if (!answer.SchemaDefinition || !FORMATS.includes(answer.DataFormat ?? '')) {
        throw new SchemaNotFoundError(schemaId, spec.uri, `GetSchemaVersion answered no definition or an unknown data format (${answer.DataFormat ?? 'none'})`);
      }
      return { format: answer.DataFormat as DataFormat, definition: answer.SchemaDefinition, references: [] };
    },
  };
}

/**
 * Pure: what an access denial on GetSchemaVersion means. IAM names the resource it refused ("… is
 * not authorized to perform: glue:GetSchemaVersion on resource: arn:…"): a Glue registry or schema
 * ARN other than this registry's is a version of another registry, the record's failure ('another
 * registry'). Anything else waits like an outage until the role is fixed ('own grant'): this
 * registry's own resources, and a denial that names no Glue resource (an explicit deny in a
 * service control policy, "no identity-based policy allows", a bare "Access denied"), which says
 * nothing about the record and must not send every record to the destination. Anything but a
 * denial is undefined.
 */
export function glueDenial(errorName: string | undefined, message: string, glue: Glue): 'own grant' | 'another registry' | undefined {
  if (errorName !== 'AccessDeniedException' && errorName !== 'AccessDenied') return undefined;
  const resource = /on resource: (arn:\S+?)[\s.,;]*(?:\s|$)/.exec(message)?.[1];
  const glueResource = resource !== undefined && /^arn:[^:]+:glue:[^:]*:[^:]*:(?:registry|schema)\//.test(resource);
  if (!glueResource) return 'own grant';
  const base = `arn:${glue.partition}:glue:${glue.region}:${glue.accountId}:`;
  const own = resource === `${base}registry/${glue.registryName}` || resource.startsWith(`${base}schema/${glue.registryName}/`);
  return own ? 'own grant' : 'another registry';
}
