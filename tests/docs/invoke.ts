/**
 * Invokes each handler file named on the command line (docs snippets, see docs.test.ts) once,
 * with an event of one JSON record that Sluice's own event builder makes and a Lambda-like
 * context, and prints one JSON line per file: `{ file, result }` or `{ file, error }`.
 */
import { randomUUID } from 'node:crypto';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { buildEvent } from '../../framework/event/build-event.ts';

const record = {
  topic: 'orders',
  partition: 0,
  offset: 15,
  timestamp: Date.now(),
  timestampType: 'CREATE_TIME' as const,
  key: Buffer.from('k1'),
  value: Buffer.from(JSON.stringify({ id: 1, amount: 5, currency: 'EUR' })),
  headers: [['trace', Buffer.from('abc')]] as Array<[string, Buffer | null]>,
};

function context(name: string): Context {
  const deadline = Date.now() + 30_000;
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName: `docs-dev-${name}`,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:docs-dev-${name}`,
    memoryLimitInMB: '1024',
    awsRequestId: randomUUID(),
    logGroupName: `/aws/lambda/docs-dev-${name}`,
    logStreamName: 'docs',
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

for (const file of process.argv.slice(2)) {
  try {
    const mod = (await import(pathToFileURL(file).href)) as { handler?: (event: unknown, context: Context) => unknown };
    if (typeof mod.handler !== 'function') throw new Error('exports no handler function');
    const result = await mod.handler(buildEvent([record], { bootstrapServers: '127.0.0.1:29092' }), context('orders'));
    process.stdout.write(JSON.stringify({ file, result: result ?? null }) + '\n');
  } catch (e) {
    process.stdout.write(JSON.stringify({ file, error: (e as Error).stack ?? String(e) }) + '\n');
  }
}
