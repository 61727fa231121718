/**
 * The local schema registry (tests/registry-setup.ts -> infra/registry) speaks the Confluent
 * Schema Registry API: schemas of the three types are registered under `<topic>-value` subjects
 * and read back by id, and the global BACKWARD compatibility (Confluent's default) refuses an
 * incompatible new version with 409 while accepting a compatible one.
 */
import { afterAll, describe, expect, it, inject } from 'vitest';
import { uniqueName } from '../support/kafka.ts';
import { testPort } from '../support/ports.ts';

const CONTENT_TYPE = 'application/vnd.schemaregistry.v1+json';

interface Answer<T> { status: number; body: T }

async function call<T>(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<Answer<T>> {
  const res = await fetch(`${inject('schemaRegistryUrl')}${path}`, {
    method,
    headers: { Accept: CONTENT_TYPE, ...(body === undefined ? {} : { 'Content-Type': CONTENT_TYPE }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    signal: AbortSignal.timeout(10_000),
  });
  return { status: res.status, body: (await res.json()) as T };
}

const register = (subject: string, schema: { schema: string; schemaType?: 'AVRO' | 'PROTOBUF' | 'JSON' }) =>
  call<{ id: number } & { error_code?: number; message?: string }>('POST', `/subjects/${encodeURIComponent(subject)}/versions`, schema);
const byId = (id: number) => call<{ schema: string; schemaType?: string }>('GET', `/schemas/ids/${id}`);

const avro = (fields: object[]): string => JSON.stringify({ type: 'record', name: 'Order', namespace: 'sluice.test', fields });
const ORDER_V1 = avro([{ name: 'id', type: 'string' }, { name: 'amount', type: 'double' }]);

describe('the local schema registry (Confluent API)', () => {
  const subjects: string[] = [];
  const subject = (): string => {
    const s = `${uniqueName('orders')}-value`;
    subjects.push(s);
    return s;
  };
  afterAll(async () => {
    for (const s of subjects) {
      await call('DELETE', `/subjects/${encodeURIComponent(s)}`); // soft delete first, as Confluent requires
      await call('DELETE', `/subjects/${encodeURIComponent(s)}?permanent=true`);
    }
  });

  it('is served under /apis/ccompat/v7 with BACKWARD as the global compatibility', async () => {
    if (!process.env['SCHEMA_REGISTRY_URL']) expect(inject('schemaRegistryUrl')).toBe(`http://127.0.0.1:${testPort(28181)}/apis/ccompat/v7`);
    expect(await call('GET', '/config')).toEqual({ status: 200, body: { compatibilityLevel: 'BACKWARD' } });
  });

  it('registers an Avro schema under <topic>-value and gives it back by id; the same schema again gets the same id', async () => {
    const s = subject();
    const first = await register(s, { schema: ORDER_V1 });
    expect(first.status).toBe(200);
    expect(first.body.id).toBeGreaterThan(0);
    const got = await byId(first.body.id);
    expect(got.status).toBe(200);
    expect(JSON.parse(got.body.schema)).toEqual(JSON.parse(ORDER_V1));
    expect(got.body.schemaType ?? 'AVRO').toBe('AVRO');
    expect((await register(s, { schema: ORDER_V1 })).body.id).toBe(first.body.id);
  });

  it('registers PROTOBUF and JSON schemas (schemaType) and gives each back with its type', async () => {
    const proto = 'syntax = "proto3";\npackage sluice.test;\n\nmessage Order {\n  string id = 1;\n  double amount = 2;\n}\n';
    const json = JSON.stringify({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object', properties: { id: { type: 'string' } }, required: ['id'] });
    for (const [schemaType, schema] of [['PROTOBUF', proto], ['JSON', json]] as const) {
      const registered = await register(subject(), { schemaType, schema });
      expect(registered.status, JSON.stringify(registered.body)).toBe(200);
      const got = await byId(registered.body.id);
      expect(got.status).toBe(200);
      expect(got.body.schemaType).toBe(schemaType);
      expect(schemaType === 'JSON' ? JSON.parse(got.body.schema) : got.body.schema.trim()).toEqual(schemaType === 'JSON' ? JSON.parse(json) : proto.trim());
    }
  });

  it('refuses a backward-incompatible new Avro version with 409 and accepts a compatible one', async () => {
    const s = subject();
    const v1 = await register(s, { schema: ORDER_V1 });
    expect(v1.status).toBe(200);

    // A new required field without a default: a v2 reader cannot read v1 data.
    const incompatible = await register(s, { schema: avro([{ name: 'id', type: 'string' }, { name: 'amount', type: 'double' }, { name: 'currency', type: 'string' }]) });
    expect(incompatible.status).toBe(409);
    expect(incompatible.body.error_code).toBe(409);

    // The same field with a default: backward compatible, so it becomes version 2.
    const compatible = await register(s, { schema: avro([{ name: 'id', type: 'string' }, { name: 'amount', type: 'double' }, { name: 'currency', type: 'string', default: 'EUR' }]) });
    expect(compatible.status, JSON.stringify(compatible.body)).toBe(200);
    expect(compatible.body.id).not.toBe(v1.body.id);
    expect(await call('GET', `/subjects/${encodeURIComponent(s)}/versions`)).toEqual({ status: 200, body: [1, 2] });
  });
});
