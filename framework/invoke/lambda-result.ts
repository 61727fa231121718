/**
 * Pure: what AWS Lambda's Invoke API (RequestResponse) answered -> an InvokeResult, and what a
 * thrown SDK error means. The lambda invoker (lambda.ts) only sends and calls these.
 *
 * - 200 without `FunctionError`: ok, with the JSON payload the handler returned.
 * - `FunctionError` (Handled or Unhandled): the handler failed; the payload says how
 *   (`errorType`, `errorMessage`, `trace`/`stackTrace`). Lambda's own timeout ("Task timed out
 *   after 3.00 seconds", errorType `Sandbox.Timedout`; serverless-offline's "[504] - Lambda
 *   timeout.") is a timeout, a runtime that exited or ran out of memory is a crash.
 * - A thrown error: throttling is retried by the invoker. Throttling past those retries, an
 *   unreachable endpoint, an unknown function (a redeploy), 503 and the errors Lambda answers
 *   before the function runs (NOT_RUN below) mean the function never ran: kind `not-invoked`,
 *   retried without spending an attempt. A request too large and other service errors (500,
 *   400s that describe the request, EFSIOException) are failed invocations for the failure
 *   policy: kind `crash`.
 */
import type { InvokeError, InvokeResult } from './types.ts';

export interface InvokeResponse {
  statusCode: number | undefined;
  functionError: string | undefined;
  payload: Uint8Array | undefined;
  requestId: string;
  durationMs: number;
}

/** What the invoker knows when a call fails, for messages that say where and what. */
export interface FailureContext {
  lambdaName: string;
  /** The endpoint in use, or undefined for AWS's own. */
  endpoint: string | undefined;
  requestBytes: number;
}

export type ThrownError =
  | { throttled: true; error: InvokeError }
  | { throttled: false; error: InvokeError };

const TIMEOUT_MESSAGE = /Task timed out after [\d.]+ seconds|\[504\] - Lambda timeout\./;
const TIMEOUT_TYPES = new Set(['Sandbox.Timedout']);
const CRASH_TYPES = new Set(['Runtime.ExitError', 'Runtime.OutOfMemory']);
const THROTTLE_NAMES = new Set(['TooManyRequestsException', 'ThrottlingException']);
/** Network errors that mean the request was never sent. */
const UNREACHED_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH']);
/**
 * Errors of Lambda's Invoke (its API reference, and @aws-sdk/client-lambda 3.1164's models) that
 * come before the handler gets the event. Every 403 (the caller may not invoke: AccessDenied,
 * a bad signature or token, EFSMountFailure) and every 409 (ResourceConflict: the function is
 * being updated; SnapStartNotReady, CodeArtifactUser*) is answered before anything runs. 502 and
 * 408 are matched by name: the execution environment could not be set up (VPC, ENI, subnet,
 * KMS, runtime, package; a file system or a SnapStart restore that timed out), while a 502 or
 * 408 from something in between (a proxy) may come after the function ran, so stays a failure.
 */
const NOT_RUN_STATUSES = new Set([403, 409]);
const NOT_RUN_NAMES = new Set([
  'EC2AccessDeniedException', 'EC2ThrottledException', 'EC2UnexpectedException', 'ENILimitReachedException', 'ENINotReadyException',
  'InvalidRuntimeException', 'InvalidSecurityGroupIDException', 'InvalidSubnetIDException', 'InvalidZipFileException',
  'KMSAccessDeniedException', 'KMSDisabledException', 'KMSInvalidStateException', 'KMSNotFoundException',
  'ResourceNotReadyException', 'SubnetIPAddressLimitReachedException', // 502
  'EFSMountConnectivityException', 'EFSMountTimeoutException', 'S3FilesMountConnectivityException', 'S3FilesMountTimeoutException', 'SnapStartTimeoutException', // 408
]);

export function resultFromResponse(r: InvokeResponse): InvokeResult {
  const text = r.payload ? Buffer.from(r.payload).toString('utf8') : '';
  const { durationMs, requestId } = r;
  if (r.functionError) return { ok: false, error: functionError(r.functionError, text), durationMs, requestId };
  return { ok: true, payload: parsePayload(text), durationMs, requestId };
}

/** The error a failed handler reported (`X-Amz-Function-Error: Handled | Unhandled`). */
export function functionError(functionErrorHeader: string, text: string): InvokeError {
  const body = parsePayload(text);
  const fields = typeof body === 'object' && body !== null ? (body as Record<string, unknown>) : {};
  const name = stringField(fields, 'errorType') ?? functionErrorHeader;
  const message = stringField(fields, 'errorMessage') ?? (text ? text : `the function failed (${functionErrorHeader}) without an error message`);
  const trace = [fields['trace'], fields['stackTrace']].find((t): t is unknown[] => Array.isArray(t));
  const kind = TIMEOUT_TYPES.has(name) || TIMEOUT_MESSAGE.test(message) ? 'timeout' : CRASH_TYPES.has(name) ? 'crash' : 'error';
  return { kind, name, message, ...(trace ? { stack: trace.map(String).join('\n') } : {}) };
}

/** A thrown SDK (or network) error: throttled (to retry) or a failed invocation. */
export function classifyThrown(e: unknown, c: FailureContext): ThrownError {
  const { name, message, status, code } = describe(e);
  const at = c.endpoint ? ` at ${c.endpoint}` : '';
  if (THROTTLE_NAMES.has(name) || status === 429) {
    return { throttled: true, error: { kind: 'not-invoked', name: name === 'Error' ? 'TooManyRequestsException' : name, message: `Lambda ${c.lambdaName} is throttled: ${message}` } };
  }
  if (name === 'RequestTooLargeException' || status === 413) {
    return { throttled: false, error: { kind: 'crash', name: 'RequestTooLargeException', message: `the request to ${c.lambdaName} was ${c.requestBytes} bytes, over Lambda's 6 MB limit: ${message}` } };
  }
  if (name === 'ResourceNotFoundException') {
    return { throttled: false, error: { kind: 'not-invoked', name, message: `no Lambda function ${c.lambdaName}${at}: ${message}` } };
  }
  if (status === undefined) {
    // Refused or unresolvable: the request never left. A reset or a stall may come after the function ran.
    const kind = code !== undefined && UNREACHED_CODES.has(code) ? 'not-invoked' : 'crash';
    return { throttled: false, error: { kind, name, message: `cannot reach Lambda${at || ' (AWS)'} to invoke ${c.lambdaName}: ${message}` } };
  }
  if (NOT_RUN_STATUSES.has(status) || NOT_RUN_NAMES.has(name)) {
    return { throttled: false, error: { kind: 'not-invoked', name, message: `Lambda${at} answered before ${c.lambdaName} ran (HTTP ${status} ${name}): ${message}` } };
  }
  if (status === 503) {
    return { throttled: false, error: { kind: 'not-invoked', name, message: `Lambda${at} is unavailable (HTTP 503) to invoke ${c.lambdaName}: ${message}` } };
  }
  return { throttled: false, error: { kind: 'crash', name, message: `invoking ${c.lambdaName}${at} failed (HTTP ${status}): ${message}` } };
}

export type FunctionCheck = 'missing' | 'unsupported' | 'not-allowed' | 'unreachable' | 'failed';

/** Why `GetFunction` failed at start: a missing function or an unreachable endpoint stop the start; an endpoint without the API (serverless-offline) or a role without `lambda:GetFunction` only skip the check. */
export function classifyCheck(e: unknown): FunctionCheck {
  const { name, status, code } = describe(e);
  if (name === 'ResourceNotFoundException') return 'missing';
  if (name === 'AccessDeniedException') return 'not-allowed'; // bad credentials (UnrecognizedClientException, 403) are 'failed'
  if (status === 404 || status === 405 || status === 501 || name === 'UnknownOperationException') return 'unsupported';
  if (status === undefined && (/^E[A-Z_]+$/.test(code ?? '') || name === 'AbortError' || name === 'TimeoutError')) return 'unreachable';
  return 'failed';
}

export interface ErrorFacts {
  name: string;
  /** Never empty: a refused connection on Node 20 is an AggregateError without a message. */
  message: string;
  /** The HTTP status, if the service answered. */
  status: number | undefined;
  /** Node's system error code (ECONNREFUSED, ENOTFOUND, …), if any. */
  code: string | undefined;
}

export function describe(e: unknown): ErrorFacts {
  if (!(e instanceof Error)) return { name: 'Error', message: String(e), status: undefined, code: undefined };
  const status = (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
  const rawCode = (e as { code?: unknown }).code;
  const code = typeof rawCode === 'string' ? rawCode : undefined;
  const inner = e instanceof AggregateError ? e.errors.map((x: unknown) => (x instanceof Error ? x.message : String(x))).join('; ') : '';
  return { name: e.name, message: e.message || inner || code || e.name, status, code };
}

function parsePayload(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text; // not JSON (serverless-offline quotes a returned string without escaping it): the text as is
  }
}

function stringField(o: Record<string, unknown>, key: string): string | undefined {
  const v = o[key];
  return typeof v === 'string' && v !== '' ? v : undefined;
}
