/**
 * The lambda invoker: each chunk is a synchronous (RequestResponse) `Invoke` of the deployed
 * function through @aws-sdk/client-lambda, against AWS or any endpoint that speaks the Lambda
 * API (serverless-offline's, port 3002 by default). Throttling is retried here with a short,
 * bounded backoff; every other failure becomes a failed InvokeResult (lambda-result.ts) for
 * the poller's failure policy. `invoke` never throws for a failed call.
 *
 * Region and credentials come from the SDK's chain; the endpoint from the option, else
 * AWS_ENDPOINT_URL_LAMBDA, else AWS_ENDPOINT_URL. A loopback endpoint (serverless-offline,
 * LocalStack) gets placeholder credentials when the environment names none.
 */
import { GetFunctionCommand, InvokeCommand, LambdaClient, type LambdaClientConfig } from '@aws-sdk/client-lambda';
import { SluiceError } from '../errors.ts';
import { retryDelayMs, type BackoffOptions } from '../failure/backoff.ts';
import type { Logger } from '../observe/logger.ts';
import { DEFAULT_MAX_THROTTLE_RETRIES, DEFAULT_RESPONSE_GRACE_MS, DEFAULT_THROTTLE_BACKOFF, lambdaOverheadMs } from './lambda-overhead.ts';
import { classifyCheck, classifyThrown, describe, resultFromResponse, type FailureContext } from './lambda-result.ts';
import { buildEvent } from '../event/build-event.ts';
import type { InvokeRequest, InvokeResult, Invoker } from './types.ts';

export interface LambdaInvokerOptions {
  /** Sluice function key (the key under `functions:`) -> the deployed Lambda's name or ARN. */
  functionNames: Record<string, string>;
  region?: string;
  endpoint?: string;
  logger: Logger;
  /** Retries of a throttled invocation before it counts as failed (default 4). */
  maxThrottleRetries?: number;
  /** Backoff between throttle retries (default 100 ms doubling, at most 2 s). */
  throttleBackoff?: BackoffOptions;
  /** How long past the function's timeout to wait for an answer before giving up (default 5 s). */
  responseGraceMs?: number;
  credentials?: LambdaClientConfig['credentials'];
  /** Where the endpoint and placeholder credentials are looked up (default process.env). */
  env?: NodeJS.ProcessEnv;
  /** Invocations that may run at once (the triggers' concurrency added up): the client gets at least that many sockets. */
  maxConcurrency?: number;
}

export { DEFAULT_THROTTLE_BACKOFF };
const CHECK_TIMEOUT_MS = 10_000;

/** The name the Serverless Framework gives a function it deploys (and serverless-offline exposes). */
export function deployedLambdaName(service: string, stage: string, functionKey: string): string {
  return `${service}-${stage}-${functionKey}`;
}

export function createLambdaInvoker(o: LambdaInvokerOptions): Invoker {
  const env = o.env ?? process.env;
  const endpoint = o.endpoint ?? env['AWS_ENDPOINT_URL_LAMBDA'] ?? env['AWS_ENDPOINT_URL'];
  const credentials = o.credentials ?? (endpoint && isLoopback(endpoint) && !env['AWS_ACCESS_KEY_ID'] && !env['AWS_PROFILE'] ? { accessKeyId: 'sluice-local', secretAccessKey: 'sluice-local' } : undefined);
  // One attempt per send: throttling is retried below, anything else by the failure policy.
  // The SDK's default pool is 50 sockets: more partitions at once than that would queue inside
  // the abort deadline and time out while the function still runs.
  const maxSockets = Math.max(50, o.maxConcurrency ?? 0);
  const client = new LambdaClient({
    maxAttempts: 1,
    requestHandler: { httpAgent: { maxSockets }, httpsAgent: { maxSockets } },
    ...(o.region ? { region: o.region } : {}), ...(endpoint ? { endpoint } : {}), ...(credentials ? { credentials } : {}),
  });
  const maxThrottleRetries = o.maxThrottleRetries ?? DEFAULT_MAX_THROTTLE_RETRIES;
  const backoff = o.throttleBackoff ?? DEFAULT_THROTTLE_BACKOFF;
  const graceMs = o.responseGraceMs ?? DEFAULT_RESPONSE_GRACE_MS;
  // Past the function's timeout: the grace for its answer, and the throttle backoffs at their longest.
  const overheadMs = lambdaOverheadMs(graceMs, maxThrottleRetries, backoff);
  const where = endpoint ?? 'AWS';

  const lambdaNameOf = (functionKey: string): string => {
    const name = o.functionNames[functionKey];
    if (!name) throw new SluiceError('HANDLER_NOT_FOUND', `No Lambda name for function "${functionKey}" (known: ${Object.keys(o.functionNames).join(', ') || 'none'}).`);
    return name;
  };

  /** Sends with a deadline; the timer is always cleared. */
  const send = async <T>(call: (signal: AbortSignal) => Promise<T>, deadlineMs: number): Promise<{ value: T } | { error: unknown; timedOut: boolean }> => {
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), deadlineMs);
    try {
      return { value: await call(abort.signal) };
    } catch (error) {
      return { error, timedOut: abort.signal.aborted };
    } finally {
      clearTimeout(timer);
    }
  };

  async function checkFunctions(): Promise<void> {
    for (const [functionKey, lambdaName] of Object.entries(o.functionNames)) {
      const sent = await send((abortSignal) => client.send(new GetFunctionCommand({ FunctionName: lambdaName }), { abortSignal }), CHECK_TIMEOUT_MS);
      if ('value' in sent) {
        o.logger.debug('lambda found', { function: functionKey, lambda: lambdaName, endpoint: where });
        continue;
      }
      const check = sent.timedOut ? 'unreachable' : classifyCheck(sent.error);
      const { name, message } = describe(sent.error);
      if (check === 'unsupported' || check === 'not-allowed') {
        const why = check === 'unsupported' ? `${where} does not support GetFunction` : 'no lambda:GetFunction permission';
        o.logger.debug(`cannot check that the Lambdas exist (${why}); a wrong name shows at the first invocation`, { endpoint: where });
        return;
      }
      const fix =
        check === 'missing'
          ? `Deploy the service (npx serverless deploy), or start serverless-offline for it; Sluice names functions <service>-<stage>-<function>.`
          : check === 'unreachable'
            ? `Is the endpoint running (npx serverless offline start --lambdaPort …)?`
            : 'Check the region and credentials (AWS_REGION, AWS_PROFILE).';
      const what = check === 'missing' ? `there is no Lambda "${lambdaName}" at ${where}` : check === 'unreachable' ? `cannot reach the Lambda endpoint ${where}` : `cannot look up Lambda "${lambdaName}" at ${where}`;
      throw new SluiceError('HANDLER_NOT_FOUND', `Function "${functionKey}": ${what} (${name}: ${sent.timedOut ? `no answer in ${CHECK_TIMEOUT_MS} ms` : message}). ${fix}`, { cause: sent.error, retriable: check === 'unreachable' });
    }
  }

  /** Once per invoker: start asks before any broker starts, and the service runner again. */
  let checked: Promise<void> | undefined;
  return {
    overheadMs,

    prepare() {
      checked ??= checkFunctions();
      checked.catch(() => (checked = undefined));
      return checked;
    },

    async invoke(request: InvokeRequest): Promise<InvokeResult> {
      const lambdaName = lambdaNameOf(request.functionName);
      const payload = Buffer.from(JSON.stringify(buildEvent(request.records, request.source)));
      const context: FailureContext = { lambdaName, endpoint, requestBytes: payload.length };
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      for (let retries = 0; ; retries++) {
        const sent = await send(
          (abortSignal) => client.send(new InvokeCommand({ FunctionName: lambdaName, InvocationType: 'RequestResponse', Payload: payload }), { abortSignal }),
          request.timeoutMs + graceMs,
        );
        if ('value' in sent) {
          const r = sent.value;
          return resultFromResponse({ statusCode: r.StatusCode, functionError: r.FunctionError, payload: r.Payload, requestId: r.$metadata.requestId ?? '', durationMs: elapsed() });
        }
        const requestId = (sent.error as { $metadata?: { requestId?: string } }).$metadata?.requestId ?? '';
        if (sent.timedOut) {
          const message = `no answer from ${lambdaName} within ${request.timeoutMs + graceMs} ms (the function's timeout plus ${graceMs} ms)`;
          return { ok: false, error: { kind: 'timeout', name: 'TimeoutError', message }, durationMs: elapsed(), requestId };
        }
        const failure = classifyThrown(sent.error, context);
        if (!failure.throttled || retries >= maxThrottleRetries) {
          const error = failure.throttled ? { ...failure.error, message: `${failure.error.message} (gave up after ${retries + 1} attempts)` } : failure.error;
          return { ok: false, error, durationMs: elapsed(), requestId };
        }
        const delayMs = retryDelayMs(retries + 1, backoff);
        o.logger.debug('throttled; retrying', { lambda: lambdaName, attempt: retries + 1, delayMs });
        await new Promise((resolve) => setTimeout(resolve, delayMs));
      }
    },

    async close() {
      client.destroy();
    },
  };
}

function isLoopback(endpoint: string): boolean {
  try {
    const host = new URL(endpoint).hostname;
    return host === 'localhost' || host === '[::1]' || host.startsWith('127.');
  } catch {
    return false;
  }
}
