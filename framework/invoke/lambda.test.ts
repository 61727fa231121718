/**
 * The lambda invoker through the real AWS SDK against a small HTTP server that answers as the
 * Lambda API does (status codes, x-amzn-ErrorType, X-Amz-Function-Error, x-amzn-RequestId):
 * what comes back from `invoke` and `prepare` for each kind of answer.
 */
import { buildEvent } from '../event/build-event.ts';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createLogger } from '../observe/logger.ts';
import { createLambdaInvoker, type LambdaInvokerOptions } from './lambda.ts';

interface Answer {
  status: number;
  headers?: Record<string, string>;
  body?: unknown;
  /** Never answer (the client must give up). */
  hang?: boolean;
}

const seen: Array<{ method: string; path: string; invocationType: string | undefined; body: string }> = [];
let answers: Answer[] = [];
let server: Server;
let endpoint: string;
const hanging: ServerResponse[] = [];

function answer(req: IncomingMessage, res: ServerResponse, body: string) {
  seen.push({ method: req.method!, path: req.url!, invocationType: req.headers['x-amz-invocation-type'] as string | undefined, body });
  const a = answers.shift() ?? { status: 500, headers: { 'x-amzn-ErrorType': 'ServiceException' }, body: { message: 'no scripted answer' } };
  if (a.hang) return void hanging.push(res);
  res.writeHead(a.status, { 'content-type': 'application/json', 'x-amzn-RequestId': `req-${seen.length}`, ...a.headers });
  res.end(a.body === undefined ? '' : JSON.stringify(a.body));
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (d: Buffer) => (body += d.toString()));
    req.on('end', () => answer(req, res, body));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  for (const res of hanging) res.destroy();
  await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
  seen.length = 0;
  answers = [];
});

const logger = createLogger('test', { level: 'error' });
const invokerFor = (o: Partial<LambdaInvokerOptions> = {}) =>
  createLambdaInvoker({ functionNames: { orders: 'svc-dev-orders' }, region: 'us-east-1', endpoint, logger, throttleBackoff: { baseMs: 1, capMs: 5 }, env: {}, ...o });
const throttled: Answer = { status: 429, headers: { 'x-amzn-ErrorType': 'TooManyRequestsException' }, body: { Type: 'User', message: 'Rate Exceeded.', Reason: 'ReservedFunctionConcurrentInvocationLimitExceeded' } };
const request = { functionName: 'orders', records: [], source: { bootstrapServers: 'b:9092' }, timeoutMs: 3_000 };

describe('lambda invoker: invoke', () => {
  it('sends the event as a RequestResponse invocation of the mapped name; 200 is ok with the payload and request id', async () => {
    answers = [{ status: 200, body: { handled: 3 } }];
    const invoker = invokerFor();
    const result = await invoker.invoke(request);
    await invoker.close();
    expect(result).toMatchObject({ ok: true, payload: { handled: 3 }, requestId: 'req-1' });
    // duration-scan: allowed, a sanity bound (a duration is never negative), not a timing one
    expect(result.durationMs).toBeGreaterThanOrEqual(0);
    expect(seen).toEqual([{ method: 'POST', path: '/2015-03-31/functions/svc-dev-orders/invocations', invocationType: 'RequestResponse', body: JSON.stringify(buildEvent(request.records, request.source)) }]);
  });

  it('a FunctionError comes back as the handler error', async () => {
    answers = [{ status: 200, headers: { 'X-Amz-Function-Error': 'Unhandled' }, body: { errorType: 'PoisonError', errorMessage: 'poison at offset 7' } }];
    const invoker = invokerFor();
    expect(await invoker.invoke(request)).toMatchObject({ ok: false, error: { kind: 'error', name: 'PoisonError', message: 'poison at offset 7' } });
    await invoker.close();
  });

  it('throttling is retried with backoff, and the retry that gets through is the result', async () => {
    answers = [throttled, throttled, { status: 200, body: 'done' }];
    const invoker = invokerFor();
    expect(await invoker.invoke(request)).toMatchObject({ ok: true, payload: 'done', requestId: 'req-3' });
    await invoker.close();
    expect(seen).toHaveLength(3);
  });

  it('throttling past maxThrottleRetries is a failed invocation naming TooManyRequestsException', async () => {
    answers = [throttled, throttled, throttled, { status: 200, body: 'too late' }];
    const invoker = invokerFor({ maxThrottleRetries: 2 });
    const result = await invoker.invoke(request);
    await invoker.close();
    expect(result).toMatchObject({ ok: false, error: { kind: 'not-invoked', name: 'TooManyRequestsException', message: 'Lambda svc-dev-orders is throttled: Rate Exceeded. (gave up after 3 attempts)' } });
    expect(seen).toHaveLength(3);
  });

  it('RequestTooLargeException is a failed invocation that names it', async () => {
    answers = [{ status: 413, headers: { 'x-amzn-ErrorType': 'RequestTooLargeException' }, body: { Type: 'User', message: 'Request must be smaller than 6291456 bytes for the InvokeFunction operation' } }];
    const invoker = invokerFor();
    expect(await invoker.invoke(request)).toMatchObject({ ok: false, error: { kind: 'crash', name: 'RequestTooLargeException', message: expect.stringMatching(/^the request to svc-dev-orders was \d+ bytes, over Lambda's 6 MB limit/) } });
    await invoker.close();
  });

  it('an endpoint that refuses connections is a crash that says where', async () => {
    const invoker = invokerFor({ endpoint: 'http://127.0.0.1:1' });
    expect(await invoker.invoke(request)).toMatchObject({ ok: false, error: { kind: 'not-invoked', message: expect.stringMatching(/^cannot reach Lambda at http:\/\/127\.0\.0\.1:1 to invoke svc-dev-orders: .*ECONNREFUSED/) } });
    await invoker.close();
  });

  it('no answer within the function timeout plus the grace is a timeout', async () => {
    answers = [{ status: 200, hang: true }];
    const invoker = invokerFor({ responseGraceMs: 50 });
    expect(await invoker.invoke({ ...request, timeoutMs: 100 })).toMatchObject({ ok: false, error: { kind: 'timeout', message: 'no answer from svc-dev-orders within 150 ms (the function\'s timeout plus 50 ms)' } });
    await invoker.close();
  });

  it('takes the endpoint from AWS_ENDPOINT_URL_LAMBDA when no option names one', async () => {
    answers = [{ status: 200, body: 1 }];
    const invoker = createLambdaInvoker({ functionNames: { orders: 'svc-dev-orders' }, region: 'us-east-1', logger, env: { AWS_ENDPOINT_URL_LAMBDA: endpoint } });
    expect(await invoker.invoke(request)).toMatchObject({ ok: true, payload: 1 });
    await invoker.close();
  });
});

describe('lambda invoker: prepare', () => {
  it('passes when every function exists, asking once however often it is prepared (start, then the service runner)', async () => {
    answers = [{ status: 200, body: { Configuration: { FunctionName: 'svc-dev-orders' } } }];
    const invoker = invokerFor();
    await invoker.prepare();
    await invoker.prepare();
    await invoker.close();
    expect(seen.map((s) => `${s.method} ${s.path}`)).toEqual(['GET /2015-03-31/functions/svc-dev-orders']);
  });

  it('fails the start when a function does not exist, naming it and the fix', async () => {
    answers = [{ status: 404, headers: { 'x-amzn-ErrorType': 'ResourceNotFoundException' }, body: { Type: 'User', Message: 'Function not found: arn:aws:lambda:us-east-1:1:function:svc-dev-orders' } }];
    const invoker = invokerFor();
    await expect(invoker.prepare()).rejects.toThrow(/Function "orders": there is no Lambda "svc-dev-orders" at http:\/\/127\.0\.0\.1:\d+ .*Deploy the service/);
    await invoker.close();
  });

  it('skips the check on an endpoint without GetFunction (serverless-offline answers a plain 404)', async () => {
    answers = [{ status: 404, body: { statusCode: 404, error: 'Not Found', message: 'Not Found' } }];
    const invoker = invokerFor({ functionNames: { orders: 'a', payments: 'b' } });
    await invoker.prepare();
    await invoker.close();
    expect(seen).toHaveLength(1);
  });

  it('fails the start when the endpoint cannot be reached', async () => {
    const invoker = invokerFor({ endpoint: 'http://127.0.0.1:1' });
    await expect(invoker.prepare()).rejects.toThrow(/cannot reach the Lambda endpoint http:\/\/127\.0\.0\.1:1 .*Is the endpoint running/);
    await invoker.close();
  });
});
