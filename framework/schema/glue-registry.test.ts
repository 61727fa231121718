/**
 * What a Glue GetSchemaVersion refusal does to a record. Under the deployed task's grant (this
 * registry and its schemas only) a record naming another registry's version is denied, not
 * answered: that is the record's failure, as the same version answered is (SCHEMA_NOT_FOUND), where
 * it was taken for a registry outage and its partition waited for ever. A throttle, a 5xx, or a
 * denial on this registry's own resources (the role lacks its grant) still holds the batch back.
 * A loopback server stands in for Glue's JSON API; tests/integration/glue-registry.test.ts runs
 * against moto, which enforces no IAM.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import { RecordDecoder } from './decoder.ts';
import { glueRegistry } from './glue-registry.ts';
import { RegistryUnavailableError } from './registry.ts';

const ACCOUNT = '123456789012';
const REGISTRY = `arn:aws:glue:us-east-1:${ACCOUNT}:registry/orders`;
const ROLE = `arn:aws:sts::${ACCOUNT}:assumed-role/sluice-task/abc`;
const denied = (resource: string) => ({
  status: 400,
  body: { __type: 'AccessDeniedException', Message: `User: ${ROLE} is not authorized to perform: glue:GetSchemaVersion on resource: ${resource} because no identity-based policy allows the glue:GetSchemaVersion action` },
});

/** The answer per schema version id. */
const ANSWERS: Record<string, { status: number; body: object }> = {
  '11111111-1111-1111-1111-111111111111': denied(`arn:aws:glue:us-east-1:${ACCOUNT}:schema/payments/refund`),
  '22222222-2222-2222-2222-222222222222': { status: 400, body: { __type: 'ThrottlingException', Message: 'Rate exceeded' } },
  '33333333-3333-3333-3333-333333333333': { status: 500, body: { __type: 'InternalServiceException', Message: 'Internal service error' } },
  '44444444-4444-4444-4444-444444444444': denied(`arn:aws:glue:us-east-1:${ACCOUNT}:registry/orders`),
  '55555555-5555-5555-5555-555555555555': { status: 400, body: { __type: 'EntityNotFoundException', Message: 'Schema version is not found.' } },
  // Denials that name no Glue resource say nothing about the record (a review found them sent to the destination).
  '66666666-6666-6666-6666-666666666666': { status: 400, body: { __type: 'AccessDeniedException', Message: `User: ${ROLE} is not authorized to perform: glue:GetSchemaVersion with an explicit deny in a service control policy` } },
  '77777777-7777-7777-7777-777777777777': { status: 400, body: { __type: 'AccessDeniedException', Message: 'Access denied' } },
  '88888888-8888-8888-8888-888888888888': { status: 400, body: { __type: 'AccessDeniedException', Message: '' } },
};

const glueFrame = (uuid: string) => Buffer.concat([Buffer.from([3, 0]), Buffer.from(uuid.replace(/-/g, ''), 'hex'), Buffer.from([2, 0x61])]);
const record = (uuid: string): KafkaRecord => ({ topic: 'orders', partition: 0, offset: 5, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: glueFrame(uuid), headers: [] });

describe('Glue registry: a denied or refused GetSchemaVersion', () => {
  let server: Server;
  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c)).on('end', () => {
        const { SchemaVersionId } = JSON.parse(Buffer.concat(chunks).toString()) as { SchemaVersionId: string };
        const answer = req.headers['x-amz-target'] === 'AWSGlue.GetSchemaVersion' ? ANSWERS[SchemaVersionId] : undefined;
        if (!answer) return res.writeHead(400).end();
        res.writeHead(answer.status, { 'content-type': 'application/x-amz-json-1.1' }).end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    Object.assign(process.env, { AWS_ENDPOINT_URL_GLUE: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, AWS_REGION: 'us-east-1', AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test' });
  });
  afterAll(() => new Promise<void>((r) => server.close(() => r())));

  const decoder = () => new RecordDecoder({
    registry: glueRegistry({ uri: REGISTRY, glue: { partition: 'aws', region: 'us-east-1', accountId: ACCOUNT, registryName: 'orders' }, format: 'JSON', key: false, value: true, access: {} }, 5_000),
    format: 'JSON', key: false, value: true, filters: false,
  });

  it("makes a version of another registry, denied by the role's grant, that record's failure, and the batch goes on", async () => {
    const [out] = await decoder().decode([record('11111111-1111-1111-1111-111111111111')]);
    expect(out).toMatchObject({ ok: false, reason: 'SCHEMA_NOT_FOUND' });
    expect(out!.ok || out!.error).toMatch(/denied.*another registry/);
  });

  it('treats a version Glue does not have the same way', async () => {
    const [out] = await decoder().decode([record('55555555-5555-5555-5555-555555555555')]);
    expect(out).toMatchObject({ ok: false, reason: 'SCHEMA_NOT_FOUND' });
  });

  it("holds the batch back on a throttle, a 5xx, a denial of this registry's own resources (the role lacks its grant) or one that names no Glue resource", async () => {
    for (const uuid of ['22222222-2222-2222-2222-222222222222', '33333333-3333-3333-3333-333333333333', '44444444-4444-4444-4444-444444444444', '66666666-6666-6666-6666-666666666666', '77777777-7777-7777-7777-777777777777', '88888888-8888-8888-8888-888888888888']) {
      await expect(decoder().decode([record(uuid)]), uuid).rejects.toBeInstanceOf(RegistryUnavailableError);
    }
  });
});
