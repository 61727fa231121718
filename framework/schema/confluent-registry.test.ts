import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT_BOUNDS } from '../config/input-bounds.ts';
import { confluentRegistry } from './confluent-registry.ts';
import { RegistryUnavailableError, SchemaNotFoundError, SchemaUnusableError } from './registry.ts';

/** A loopback HTTP server answering as the Confluent API does, to check how its answers are read (the real registry is in tests/integration). */
const answers: Record<string, [number, string]> = {
  '/api/schemas/ids/1': [200, JSON.stringify({ schema: '"string"' })],
  '/api/schemas/ids/2': [404, JSON.stringify({ error_code: 40403, message: 'Schema 2 not found' })],
  '/api/schemas/ids/4': [200, JSON.stringify({ schema: 'syntax = "proto3";', schemaType: 'PROTOBUF', references: [{ name: 'common.proto', subject: 'common', version: 3 }] })],
  '/api/subjects/common/versions/3': [200, JSON.stringify({ schema: 'syntax = "proto3"; message C {}', schemaType: 'PROTOBUF' })],
  '/api/schemas/ids/5': [500, 'boom'],
  '/api/schemas/ids/6': [200, JSON.stringify({ schema: 'x'.repeat(100 * 1024) })],
  '/api/schemas/ids/7': [200, JSON.stringify({ schema: '{}', references: 'common' })],
  '/api/schemas/ids/8': [200, '{"schema": "unterminated'],
  '/api/schemas/ids/9': [200, JSON.stringify({ schema: '{}', references: [{ name: 'a', subject: 'loop-a', version: 1 }] })],
  '/api/subjects/loop-a/versions/1': [200, JSON.stringify({ schema: '{}', references: [{ name: 'b', subject: 'loop-b', version: 1 }] })],
  '/api/subjects/loop-b/versions/1': [200, JSON.stringify({ schema: '{}', references: [{ name: 'a', subject: 'loop-a', version: 1 }] })],
  '/api/schemas/ids/10': [200, JSON.stringify({ schema: '{}', references: fanOut(0) })],
  ...Object.fromEntries(Array.from({ length: 20 }, (_, d) => [`/api/subjects/level-${d}/versions/1`, [200, JSON.stringify({ schema: `{"d":${d}}`, references: d < 19 ? fanOut(d + 1) : [] })]])),
  '/api/schemas/ids/12': [200, JSON.stringify({ schema: '{}', references: Array.from({ length: 100 }, (_, i) => ({ name: `r${i}`, subject: `wide-${i}`, version: 1 })) })],
  ...Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`/api/subjects/wide-${i}/versions/1`, [200, JSON.stringify({ schema: `"${'x'.repeat(19_998)}"` })]])),
};

/** Two references to the same next level: resolved naively, 2^20 requests. */
function fanOut(level: number) {
  return [{ name: 'left', subject: `level-${level}`, version: 1 }, { name: 'right', subject: `level-${level}`, version: 1 }];
}
const requests: string[] = [];

const HTTP = { timeoutMs: 2_000, maxBodyBytes: 64 * 1024 };

describe('confluentRegistry', () => {
  let server: Server;
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      requests.push(req.url ?? '');
      if (req.url === '/api/schemas/ids/11') {
        res.writeHead(200, { 'content-type': 'application/json' }).write('{"schema": "'); // and then nothing: a trickle that never ends
        return;
      }
      const [status, body] = (answers[req.url ?? ''] as [number, string] | undefined) ?? [404, '<html>Not Found</html>'];
      res.writeHead(status, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`;
  });
  afterAll(() => new Promise<void>((r) => {
    server.closeAllConnections();
    server.close(() => r());
  }));

  it('reads a schema (Avro when the type is absent) and resolves its references by subject and version', async () => {
    const registry = confluentRegistry(base, HTTP);
    expect(await registry.lookup('1')).toEqual({ format: 'AVRO', definition: '"string"', references: [] });
    expect(await registry.lookup('4')).toEqual({
      format: 'PROTOBUF', definition: 'syntax = "proto3";',
      references: [{ name: 'common.proto', schema: { format: 'PROTOBUF', definition: 'syntax = "proto3"; message C {}', references: [] } }],
    });
  });

  it('calls a 404 with the API\'s not-found code SCHEMA_NOT_FOUND, and any other 404 or error a registry that did not answer', async () => {
    const registry = confluentRegistry(base, HTTP);
    await expect(registry.lookup('2')).rejects.toBeInstanceOf(SchemaNotFoundError);
    const wrongPath = await registry.lookup('3').catch((e: unknown) => e);
    expect(wrongPath).toBeInstanceOf(RegistryUnavailableError);
    expect((wrongPath as Error).message).toMatch(/404 without a registry error code.*API base/);
    await expect(registry.lookup('5')).rejects.toBeInstanceOf(RegistryUnavailableError);
    await expect(confluentRegistry('http://127.0.0.1:1/api', HTTP).lookup('1')).rejects.toBeInstanceOf(RegistryUnavailableError);
  });

  it('fails the schema, not the trigger, for an answer that is too large, the wrong shape, malformed, or whose references loop', async () => {
    const registry = confluentRegistry(base, HTTP);
    for (const [id, why] of [['6', /over 65536 bytes \(maxRegistryAnswerBytes\)/], ['7', /"references" is not a list/], ['8', /not a schema: .*JSON/], ['9', /references loop: loop-a@1 -> loop-b@1 -> loop-a@1/]] as const) {
      const error = await registry.lookup(id).catch((e: unknown) => e);
      expect(error, id).toBeInstanceOf(SchemaUnusableError);
      expect((error as Error).message).toMatch(why);
    }
  });

  it('fetches each referenced subject and version once per lookup, and bounds how many and how deep', async () => {
    requests.length = 0;
    const schema = await confluentRegistry(base, HTTP).lookup('10');
    expect(requests).toHaveLength(21); // the id, then each of the 20 levels once (not 2^20)
    expect(schema.references[0]!.schema).toBe(schema.references[1]!.schema);
    await expect(confluentRegistry(base, HTTP, { ...INPUT_BOUNDS, maxReferenceDepth: 5 }).lookup('10')).rejects.toThrow(/nest deeper than 5 \(maxReferenceDepth\)/);
    await expect(confluentRegistry(base, HTTP, { ...INPUT_BOUNDS, maxReferences: 10 }).lookup('10')).rejects.toThrow(/more than 10 schemas \(maxReferences\)/);
  });

  it('stops fetching references once their texts pass maxSchemaBytes, where it fetched all 100 before the refusal', async () => {
    requests.length = 0;
    const error = await confluentRegistry(base, HTTP, { ...INPUT_BOUNDS, maxSchemaBytes: 50_000 }).lookup('12').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SchemaUnusableError);
    // The root's 2 bytes and three references of 20,000: the third passes the bound, and is the last one asked for.
    expect((error as Error).message).toMatch(/its text with the 3 references fetched so far is 60002 bytes, more than 50000 \(maxSchemaBytes\)/);
    expect(requests).toEqual(['/api/schemas/ids/12', '/api/subjects/wide-0/versions/1', '/api/subjects/wide-1/versions/1', '/api/subjects/wide-2/versions/1']);
    const root = await confluentRegistry(base, HTTP, { ...INPUT_BOUNDS, maxSchemaBytes: 1 }).lookup('12').catch((e: unknown) => e);
    expect((root as Error).message).toMatch(/its text is 2 bytes, more than 1 \(maxSchemaBytes\)/);
  });

  it('gives up on an answer that trickles at its total deadline: the registry did not answer', async () => {
    const error = await confluentRegistry(base, { ...HTTP, timeoutMs: 300 }).lookup('11').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RegistryUnavailableError);
    expect((error as Error).message).toMatch(/no whole answer within 300 ms/);
  });
});
