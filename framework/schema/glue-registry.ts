/**
 * An AWS Glue schema registry, by the AWS SDK's Glue client: `GetSchemaVersion` by the record's
 * schema version UUID, with the credentials and endpoint of the SDK's usual chain (AWS_REGION,
 * AWS_ENDPOINT_URL / AWS_ENDPOINT_URL_GLUE, the task role). A version that belongs to a schema
 * of another registry counts as not found: the trigger names one registry, as on AWS.
 */
import { GetSchemaVersionCommand, GlueClient } from '@aws-sdk/client-glue';
import type { SchemaRegistrySpec } from '../config/types.ts';
import { RegistryUnavailableError, SchemaNotFoundError, type DataFormat, type SchemaRegistry } from './registry.ts';

const FORMATS: readonly string[] = ['AVRO', 'PROTOBUF', 'JSON'];

export function glueRegistry(spec: SchemaRegistrySpec & { glue: NonNullable<SchemaRegistrySpec['glue']> }, timeoutMs: number): SchemaRegistry {
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
        if (name === 'EntityNotFoundException') throw new SchemaNotFoundError(schemaId, spec.uri, `GetSchemaVersion: ${(e as Error).message}`);
        throw new RegistryUnavailableError(spec.uri, `GetSchemaVersion ${schemaId}: ${name ?? ''} ${(e as Error).message}`.trim(), e);
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
