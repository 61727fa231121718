import { describe, expect, it } from 'vitest';
import { isRetriable } from '../errors.ts';
import { cachedRegistry, RegistryUnavailableError, SchemaNotFoundError, type RegisteredSchema, type SchemaRegistry } from './registry.ts';

const schema: RegisteredSchema = { format: 'JSON', definition: '{}', references: [] };

describe('cachedRegistry', () => {
  it('asks once per id, also for concurrent lookups, and keeps uri and kind', async () => {
    const asked: string[] = [];
    const inner: SchemaRegistry = { uri: 'arn:aws:glue:eu-west-1:123456789012:registry/orders', kind: 'glue', lookup: async (id) => (asked.push(id), schema) };
    const cached = cachedRegistry(inner);
    const answers = await Promise.all([cached.lookup('a'), cached.lookup('a'), cached.lookup('b')]);
    await cached.lookup('a');
    expect(answers).toEqual([schema, schema, schema]);
    expect(asked).toEqual(['a', 'b']);
    expect({ uri: cached.uri, kind: cached.kind }).toEqual({ uri: inner.uri, kind: 'glue' });
  });

  it('does not keep a failed lookup: the next one asks again', async () => {
    const asked: string[] = [];
    let failure: Error | undefined = new RegistryUnavailableError('http://r:8081', 'timeout');
    const cached = cachedRegistry({
      uri: 'http://r:8081',
      kind: 'confluent',
      lookup: async (id) => {
        asked.push(id);
        if (failure) throw failure;
        return schema;
      },
    });
    await expect(cached.lookup('1')).rejects.toBeInstanceOf(RegistryUnavailableError);
    failure = new SchemaNotFoundError('1', 'http://r:8081', '404');
    await expect(cached.lookup('1')).rejects.toBeInstanceOf(SchemaNotFoundError);
    failure = undefined;
    expect(await cached.lookup('1')).toBe(schema);
    expect(await cached.lookup('1')).toBe(schema);
    expect(asked).toEqual(['1', '1', '1']);
  });

  it('marks an unavailable registry retriable and a missing schema not', () => {
    const unavailable = new RegistryUnavailableError('http://r:8081', 'HTTP 503');
    const missing = new SchemaNotFoundError('42', 'http://r:8081', 'HTTP 404');
    expect([isRetriable(unavailable), unavailable.code, unavailable.message]).toEqual([true, 'SCHEMA_REGISTRY_UNAVAILABLE', 'the schema registry http://r:8081 did not answer: HTTP 503']);
    expect([isRetriable(missing), missing.code, missing.message]).toEqual([false, 'SCHEMA_NOT_FOUND', 'schema 42 is not in the registry http://r:8081: HTTP 404']);
  });
});
