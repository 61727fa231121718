import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { confluentRegistry } from './confluent-registry.ts';
import { RegistryUnavailableError, SchemaNotFoundError } from './registry.ts';

/** A loopback HTTP server answering as the Confluent API does, to check how its answers are read (the real registry is in tests/integration). */
const answers: Record<string, [number, string]> = {
  '/api/schemas/ids/1': [200, JSON.stringify({ schema: '"string"' })],
  '/api/schemas/ids/2': [404, JSON.stringify({ error_code: 40403, message: 'Schema 2 not found' })],
  '/api/schemas/ids/4': [200, JSON.stringify({ schema: 'syntax = "proto3";', schemaType: 'PROTOBUF', references: [{ name: 'common.proto', subject: 'common', version: 3 }] })],
  '/api/subjects/common/versions/3': [200, JSON.stringify({ schema: 'syntax = "proto3"; message C {}', schemaType: 'PROTOBUF' })],
  '/api/schemas/ids/5': [500, 'boom'],
};

describe('confluentRegistry', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const [status, body] = answers[req.url ?? ''] ?? [404, '<html>Not Found</html>'];
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  it('reads a schema (Avro when the type is absent) and resolves its references by subject and version', async () => {
    const registry = confluentRegistry(base, { timeoutMs: 2_000 });
    expect(await registry.lookup('1')).toEqual({ format: 'AVRO', definition: '"string"', references: [] });
    expect(await registry.lookup('4')).toEqual({
      format: 'PROTOBUF', definition: 'syntax = "proto3";',
      references: [{ name: 'common.proto', schema: { format: 'PROTOBUF', definition: 'syntax = "proto3"; message C {}', references: [] } }],
    });
  });

  it('calls a 404 with the API\'s not-found code SCHEMA_NOT_FOUND, and any other 404 or error a registry that did not answer', async () => {
    const registry = confluentRegistry(base, { timeoutMs: 2_000 });
    await expect(registry.lookup('2')).rejects.toBeInstanceOf(SchemaNotFoundError);
    const wrongPath = await registry.lookup('3').catch((e: unknown) => e);
    expect(wrongPath).toBeInstanceOf(RegistryUnavailableError);
    expect((wrongPath as Error).message).toMatch(/404 without a registry error code.*API base/);
    await expect(registry.lookup('5')).rejects.toBeInstanceOf(RegistryUnavailableError);
    await expect(confluentRegistry('http://127.0.0.1:1/api', { timeoutMs: 1_000 }).lookup('1')).rejects.toBeInstanceOf(RegistryUnavailableError);
  });
});
