import { describe, expect, it } from 'vitest';
import { classifyCheck, classifyThrown, functionError, resultFromResponse, type InvokeResponse } from './lambda-result.ts';

const bytes = (v: unknown) => new TextEncoder().encode(typeof v === 'string' ? v : JSON.stringify(v));
const response = (r: Partial<InvokeResponse>): InvokeResponse => ({ statusCode: 200, functionError: undefined, payload: undefined, requestId: 'req-1', durationMs: 12, ...r });
const ctx = { lambdaName: 'svc-dev-orders', endpoint: 'http://localhost:3002', requestBytes: 123 };

/** An SDK service exception as @aws-sdk/client-lambda throws it. */
function serviceError(name: string, message: string, status: number | undefined): Error {
  return Object.assign(new Error(message), { name, $metadata: { httpStatusCode: status } });
}

describe('resultFromResponse', () => {
  it('200 without FunctionError is ok, with the parsed payload, request id and duration', () => {
    expect(resultFromResponse(response({ payload: bytes({ batchItemFailures: [] }) }))).toEqual({ ok: true, payload: { batchItemFailures: [] }, durationMs: 12, requestId: 'req-1' });
  });

  it('a handler that returned nothing is ok with null; a non-JSON payload is kept as text', () => {
    expect(resultFromResponse(response({ payload: bytes('null') }))).toMatchObject({ ok: true, payload: null });
    expect(resultFromResponse(response({ payload: undefined }))).toMatchObject({ ok: true, payload: null });
    expect(resultFromResponse(response({ payload: bytes('"say "hi""') }))).toMatchObject({ ok: true, payload: '"say "hi""' });
  });

  it('FunctionError Unhandled: an error named by errorType, with errorMessage and the trace', () => {
    const payload = bytes({ errorType: 'TypeError', errorMessage: 'x is undefined', trace: ['TypeError: x is undefined', '    at handler (index.mjs:3:9)'] });
    expect(resultFromResponse(response({ functionError: 'Unhandled', payload }))).toEqual({
      ok: false, durationMs: 12, requestId: 'req-1',
      error: { kind: 'error', name: 'TypeError', message: 'x is undefined', stack: 'TypeError: x is undefined\n    at handler (index.mjs:3:9)' },
    });
  });

  it('FunctionError Handled (a runtime that reports the error itself, stackTrace as in Python/Java)', () => {
    const payload = bytes({ errorType: 'ValueError', errorMessage: 'bad order', stackTrace: ['  File "h.py", line 3'] });
    expect(resultFromResponse(response({ functionError: 'Handled', payload }))).toMatchObject({ ok: false, error: { kind: 'error', name: 'ValueError', message: 'bad order', stack: '  File "h.py", line 3' } });
  });

  it('a FunctionError without a usable body is still an error, named by the header', () => {
    expect(functionError('Unhandled', '')).toEqual({ kind: 'error', name: 'Unhandled', message: 'the function failed (Unhandled) without an error message' });
    expect(functionError('Unhandled', 'Process exited before completing request')).toEqual({ kind: 'error', name: 'Unhandled', message: 'Process exited before completing request' });
  });

  it("Lambda's timeout is a timeout: the message (older runtimes), Sandbox.Timedout, serverless-offline's 504", () => {
    expect(functionError('Unhandled', JSON.stringify({ errorMessage: '2024-05-01T10:00:00.000Z 6f1c Task timed out after 3.00 seconds' })).kind).toBe('timeout');
    expect(functionError('Unhandled', JSON.stringify({ errorType: 'Sandbox.Timedout', errorMessage: 'RequestId: 6f1c Error: Task timed out after 30.00 seconds' }))).toMatchObject({ kind: 'timeout', name: 'Sandbox.Timedout' });
    expect(functionError('Unhandled', JSON.stringify({ errorType: 'Error', errorMessage: '[504] - Lambda timeout.' })).kind).toBe('timeout');
    expect(functionError('Unhandled', JSON.stringify({ errorType: 'Error', errorMessage: 'my own message mentions a timeout' })).kind).toBe('error');
  });

  it('a runtime that exited or ran out of memory is a crash', () => {
    expect(functionError('Unhandled', JSON.stringify({ errorType: 'Runtime.ExitError', errorMessage: 'RequestId: 1 Error: Runtime exited with error: signal: killed' })).kind).toBe('crash');
    expect(functionError('Unhandled', JSON.stringify({ errorType: 'Runtime.OutOfMemory', errorMessage: 'Runtime exited' })).kind).toBe('crash');
  });
});

describe('classifyThrown', () => {
  it('TooManyRequestsException or HTTP 429 is throttling (retried by the invoker)', () => {
    expect(classifyThrown(serviceError('TooManyRequestsException', 'Rate Exceeded.', 429), ctx)).toMatchObject({ throttled: true, error: { name: 'TooManyRequestsException' } });
    expect(classifyThrown(serviceError('Error', 'slow down', 429), ctx)).toMatchObject({ throttled: true, error: { name: 'TooManyRequestsException', message: 'Lambda svc-dev-orders is throttled: slow down' } });
  });

  it('RequestTooLargeException is a failure that names it and the request size', () => {
    expect(classifyThrown(serviceError('RequestTooLargeException', 'Request must be smaller than 6291456 bytes', 413), ctx)).toEqual({
      throttled: false,
      error: { kind: 'crash', name: 'RequestTooLargeException', message: "the request to svc-dev-orders was 123 bytes, over Lambda's 6 MB limit: Request must be smaller than 6291456 bytes" },
    });
  });

  it('an unknown function, an unreachable endpoint and a 503 never ran the function (retried without an attempt); other service errors are crashes', () => {
    expect(classifyThrown(serviceError('ResourceNotFoundException', 'Function not found: x', 404), ctx).error).toMatchObject({ kind: 'not-invoked', message: 'no Lambda function svc-dev-orders at http://localhost:3002: Function not found: x' });
    const refused = Object.assign(new AggregateError([new Error('connect ECONNREFUSED ::1:3002'), new Error('connect ECONNREFUSED 127.0.0.1:3002')], ''), { code: 'ECONNREFUSED' });
    expect(classifyThrown(refused, ctx)).toEqual({
      throttled: false,
      error: { kind: 'not-invoked', name: 'AggregateError', message: 'cannot reach Lambda at http://localhost:3002 to invoke svc-dev-orders: connect ECONNREFUSED ::1:3002; connect ECONNREFUSED 127.0.0.1:3002' },
    });
    expect(classifyThrown(serviceError('ServiceException', 'internal', 500), { ...ctx, endpoint: undefined }).error).toMatchObject({ kind: 'crash', message: 'invoking svc-dev-orders failed (HTTP 500): internal' });
    expect(classifyThrown(serviceError('ServiceUnavailableException', 'try later', 503), ctx).error).toMatchObject({ kind: 'not-invoked', message: 'Lambda at http://localhost:3002 is unavailable (HTTP 503) to invoke svc-dev-orders: try later' });
    expect(classifyThrown('weird', ctx).error).toMatchObject({ kind: 'crash', name: 'Error', message: expect.stringContaining('weird') });
    const reset = Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
    expect(classifyThrown(reset, ctx).error).toMatchObject({ kind: 'crash' }); // the function may have run
  });
});

describe('classifyThrown: errors Lambda answers before the function runs', () => {
  // Each error of the Invoke API reference with its status (client-lambda 3.1164's models).
  const notRun: Array<[string, number]> = [
    ['AccessDeniedException', 403], ['UnrecognizedClientException', 403], ['EFSMountFailureException', 403], ['S3FilesMountFailureException', 403],
    ['ResourceConflictException', 409], ['SnapStartNotReadyException', 409], ['CodeArtifactUserPendingException', 409], ['CodeArtifactUserDeletedException', 409],
    ['EC2AccessDeniedException', 502], ['EC2ThrottledException', 502], ['EC2UnexpectedException', 502], ['ENILimitReachedException', 502], ['ENINotReadyException', 502],
    ['InvalidRuntimeException', 502], ['InvalidSecurityGroupIDException', 502], ['InvalidSubnetIDException', 502], ['InvalidZipFileException', 502],
    ['KMSAccessDeniedException', 502], ['KMSDisabledException', 502], ['KMSInvalidStateException', 502], ['KMSNotFoundException', 502],
    ['ResourceNotReadyException', 502], ['SubnetIPAddressLimitReachedException', 502],
    ['EFSMountConnectivityException', 408], ['EFSMountTimeoutException', 408], ['S3FilesMountConnectivityException', 408], ['S3FilesMountTimeoutException', 408], ['SnapStartTimeoutException', 408],
  ];
  it.each(notRun)('%s (HTTP %i) never ran the function: not-invoked, never throttled', (name, status) => {
    expect(classifyThrown(serviceError(name, 'why', status), ctx)).toEqual({
      throttled: false,
      error: { kind: 'not-invoked', name, message: `Lambda at http://localhost:3002 answered before svc-dev-orders ran (HTTP ${status} ${name}): why` },
    });
  });

  // Errors where the function may have run, or that describe the request the failure policy can split.
  const mayHaveRun: Array<[string, number]> = [
    ['ServiceException', 500], ['EFSIOException', 410], ['InvalidRequestContentException', 400], ['InvalidParameterValueException', 400],
    ['SnapStartException', 400], ['UnsupportedMediaTypeException', 415], ['BadGateway', 502], ['RequestTimeout', 408],
  ];
  it.each(mayHaveRun)('%s (HTTP %i) is a failed invocation for the failure policy', (name, status) => {
    expect(classifyThrown(serviceError(name, 'why', status), ctx).error.kind).toBe('crash');
  });
});

describe('classifyCheck (GetFunction at start)', () => {
  it('a missing function stops the start; an endpoint without GetFunction or a role without the permission skips the check', () => {
    expect(classifyCheck(serviceError('ResourceNotFoundException', 'Function not found', 404))).toBe('missing');
    expect(classifyCheck(serviceError('Unknown', 'Not Found', 404))).toBe('unsupported'); // serverless-offline
    expect(classifyCheck(serviceError('AccessDeniedException', 'not authorized to perform lambda:GetFunction', 403))).toBe('not-allowed');
    expect(classifyCheck(Object.assign(new Error('getaddrinfo ENOTFOUND nowhere'), { code: 'ENOTFOUND' }))).toBe('unreachable');
    expect(classifyCheck(Object.assign(new Error('Could not load credentials from any providers'), { name: 'CredentialsProviderError' }))).toBe('failed');
    expect(classifyCheck(serviceError('UnrecognizedClientException', 'The security token included in the request is invalid.', 403))).toBe('failed');
  });
});
