/**
 * Runs inside a handler's worker thread (bundled together with the handler by esbuild): the
 * Lambda-like runtime. It loads the handler once (module state survives between invocations,
 * as in a warm Lambda), builds a `context`, and returns results as JSON, as Lambda does.
 */
import { StringDecoder } from 'node:string_decoder';
import { format } from 'node:util';
import { parentPort } from 'node:worker_threads';
import { buildEvent } from '../event/build-event.ts';
import { unpackRecords } from './record-transfer.ts';
import type { FromWorker, ToWorker, WorkerContextFields, WorkerLog, WorkerWrite } from './worker-protocol.ts';
import type { InvokeError } from './types.ts';

type Handler = (event: unknown, context: object, callback: (err?: unknown, result?: unknown) => void) => unknown;

export function serve(module: Record<string, unknown>, exportName: string, source: string): void {
  const port = parentPort;
  if (!port) throw new Error('worker-runtime must run in a worker thread');
  process.setSourceMapsEnabled(true);
  const post = (m: FromWorker) => port.postMessage(m);

  const candidate = module[exportName] ?? (module.default as Record<string, unknown> | undefined)?.[exportName];
  if (typeof candidate !== 'function') {
    const names = Object.keys(module).filter((k) => k !== 'default');
    post({
      type: 'load-error',
      message:
        `${source} has no exported function "${exportName}"` +
        (names.length ? ` (it exports: ${names.join(', ')})` : ' (it exports nothing)') +
        `. Export it, or point handler: in serverless.yml at an exported function.`,
    });
    return;
  }
  const handler = candidate as Handler;

  // The handler's console goes over the port its result takes, so its lines come before the
  // outcome, each tagged with the invocation it belongs to (one runs at a time in a worker).
  let current: number | undefined;
  const log = (level: WorkerLog['level'], text: string) => post({ type: 'log', ...(current !== undefined ? { id: current } : {}), level, text });
  for (const level of ['log', 'info', 'warn', 'error', 'debug'] as const) console[level] = (...args: unknown[]) => log(level, format(...args));
  // What bypasses console takes that port too, as it is written: through the thread's own stdout
  // it reached the poller's thread after the result (on no invocation, or on the next one).
  const write = (stream: WorkerWrite['stream'], text: string) => post({ type: 'write', ...(current !== undefined ? { id: current } : {}), stream, text });
  const streams = [writesOf(process.stdout, 'stdout', write), writesOf(process.stderr, 'stderr', write)];
  port.on('message', (message: ToWorker) => {
    // Bytes of a character a timer of the handler's left unended after an invocation's end are not the next one's.
    for (const s of streams) s.end();
    current = message.id;
    void run(handler, message).then((result) => {
      // The poller's thread ends a line the invocation left unended when its result comes.
      for (const s of streams) s.end();
      post(result);
    });
  });
  post({ type: 'ready' });
}

/**
 * Takes over what is written to `stream` (in a worker thread, process.stdout and stderr are streams
 * to the parent) and hands it over at once, as text; bytes of a character split across writes are
 * kept until it is whole (or end()). Two places: `write` itself, unless the handler's module put a
 * write of its own there as it loaded (a capture, a prefix, a silencer: it stays, and what it passes
 * on to the stream's own write comes here), and underneath the stream's own write, its `_writev`,
 * which that and end(chunk) reach. What the module printed while it loaded went out the stream
 * before this ran.
 */
function writesOf(stream: NodeJS.WriteStream, name: WorkerWrite['stream'], onText: (stream: WorkerWrite['stream'], text: string) => void): { end(): void } {
  const decoder = new StringDecoder('utf8');
  const take = (chunk: string | Uint8Array, encoding: string | undefined) => {
    // As the bytes written read as UTF-8: a string in another encoding is its bytes (a character may
    // be cut between two hex writes), and bytes of a character a string cuts short are not one.
    const text =
      typeof chunk !== 'string' ? decoder.write(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
      : !encoding || encoding === 'utf8' || encoding === 'utf-8' ? decoder.end() + chunk
      : decoder.write(Buffer.from(chunk, encoding as BufferEncoding));
    if (text !== '') onText(name, text);
  };
  (stream as unknown as { _writev: (chunks: Array<{ chunk: string | Uint8Array; encoding: string }>, cb: () => void) => void })._writev = (chunks, cb) => {
    for (const { chunk, encoding } of chunks) take(chunk, encoding);
    cb();
  };
  if (!Object.hasOwn(stream, 'write')) {
    stream.write = ((chunk: string | Uint8Array, encoding?: BufferEncoding | ((e?: Error | null) => void), callback?: (e?: Error | null) => void): boolean => {
      take(chunk, typeof encoding === 'string' ? encoding : undefined);
      const done = typeof encoding === 'function' ? encoding : callback;
      if (done) process.nextTick(done, null);
      return true;
    }) as typeof stream.write;
  }
  return {
    end(): void {
      const text = decoder.end();
      if (text !== '') onText(name, text);
    },
  };
}

async function run(handler: Handler, { id, records, source, context: fields }: ToWorker): Promise<FromWorker> {
  try {
    const event = buildEvent(unpackRecords(records), source);
    const result = await call(handler, event, fields);
    // Lambda returns the JSON serialization of what the handler returned (undefined -> null).
    const payload = result === undefined ? null : JSON.parse(JSON.stringify(result));
    return { type: 'result', id, ok: true, payload };
  } catch (e) {
    return { type: 'result', id, ok: false, error: toInvokeError(e) };
  }
}

/**
 * Runs the handler as Lambda's Node runtime does: its promise, or its callback, or the context's
 * done/succeed/fail answer, the first of them that comes. An error is anything but null or
 * undefined (callback(0) and callback('') fail the invocation, as on Lambda); fail() with nothing
 * fails it as "handled". A handler that returns no promise (and, with fewer than three parameters,
 * no value) may still answer later, through its callback or its context: as on Lambda, its answer
 * is awaited until the thread has nothing left to do (no timer, socket or other handle of its
 * own), and then it is null; one that keeps a handle open and never answers runs to its timeout.
 */
function call(handler: Handler, event: unknown, fields: WorkerContextFields): Promise<unknown> {
  let idle: (() => void) | undefined;
  const answered = new Promise((resolve, reject) => {
    const done = (err?: unknown, result?: unknown) => (err !== undefined && err !== null ? reject(err) : resolve(result));
    const context = makeContext(fields, { done, succeed: (result?: unknown) => done(null, result), fail: (err?: unknown) => done(err ?? 'handled') });
    const returned = handler(event, context, done);
    if (isThenable(returned)) Promise.resolve(returned).then(resolve, reject);
    // What a handler of one or two parameters returns (not a promise) is its answer, as Node.js 24's runtime takes it.
    else if (handler.length < 3 && returned !== undefined) resolve(returned);
    else idle = () => resolve(null);
  });
  return idle ? untilAnsweredOrIdle(answered, idle) : answered;
}

/**
 * Waits for `answered`, or for the thread's event loop to empty: then `idle()` answers (Lambda's
 * runtime answers null on its process's 'beforeExit'). The port the invocations come through
 * keeps the loop alive, so it is unref'd meanwhile, and ref'd again before anything else runs.
 */
function untilAnsweredOrIdle(answered: Promise<unknown>, idle: () => void): Promise<unknown> {
  const port = parentPort!;
  const onBeforeExit = () => {
    port.ref();
    idle();
  };
  process.once('beforeExit', onBeforeExit);
  port.unref();
  const settled = () => {
    process.off('beforeExit', onBeforeExit);
    port.ref();
  };
  answered.then(settled, settled);
  return answered;
}

function makeContext(f: WorkerContextFields, answer: { done(err?: unknown, result?: unknown): void; succeed(result?: unknown): void; fail(err?: unknown): void }) {
  return {
    functionName: f.functionName,
    functionVersion: f.functionVersion,
    invokedFunctionArn: f.invokedFunctionArn,
    memoryLimitInMB: f.memoryLimitInMB,
    awsRequestId: f.awsRequestId,
    logGroupName: f.logGroupName,
    logStreamName: f.logStreamName,
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => Math.max(0, f.deadlineMs - Date.now()),
    ...answer,
  };
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return typeof (v as { then?: unknown } | null)?.then === 'function';
}

function toInvokeError(e: unknown): InvokeError {
  try {
    if (e instanceof Error) {
      const { name, message, stack } = e;
      return { kind: 'error', name: String(name), message: String(message), ...(typeof stack === 'string' && stack ? { stack } : {}) };
    }
  } catch {
    // Not readable as an Error (a revoked Proxy throws at instanceof, an Error's getter may throw): its text below.
  }
  return { kind: 'error', name: 'Error', message: typeof e === 'string' ? e : thrownText(e) };
}

/**
 * A thrown value that is not an Error, as text: its JSON, or what String() makes of one JSON cannot
 * encode (a BigInt, a cycle). The invocation fails with it, as Lambda's runtime answers it; the
 * worker never does (JSON.stringify's TypeError out of here ended the runtime: a crash).
 */
function thrownText(e: unknown): string {
  try {
    const json = JSON.stringify(e);
    if (json !== undefined) return json;
  } catch {
    // Not JSON: its string form below.
  }
  try {
    return String(e);
  } catch {
    return `a thrown ${typeof e}`;
  }
}
