/**
 * `npm start`: runs every Sluice trigger of ./serverless.yml locally (see run-local.ts; the
 * Serverless plugin's `serverless sluice start` runs the same code). Ctrl-C finishes in-flight
 * invocations, commits them, leaves the groups and stops what it started.
 */
import { parseInvokerChoice } from '../invoke/select.ts';
import { createLogger } from '../observe/logger.ts';
import { noArguments, parseArgv, wholeNumber } from './command-spec.ts';
import { loadServiceFromArgs, SERVICE_OPTIONS } from './service-args.ts';
import { exitOnError, onShutdown } from './process.ts';
import { runLocal } from './run-local.ts';

const USAGE = `Usage: npm start [-- --stage <stage>] [--function <name>] [--config <file>] [--partitions <n>]
                 [--invoker local|lambda] [--lambda-endpoint <url>] [--no-watch]

Runs the Sluice triggers of serverless.yml locally. With no bootstrapServers, custom.sluice.bootstrapServers
or KAFKA_BROKERS, a local Apache Kafka is started and the declared topics are created (--partitions, default 3).
Send records with: npm run produce -- <topic> '<value>' …

--invoker local (default) runs the handlers of functions/ in worker threads; --invoker lambda invokes the
Lambdas <service>-<stage>-<function> instead: deployed ones (credentials and region from the AWS SDK chain), or
serverless-offline's with --lambda-endpoint http://localhost:3002 (also AWS_ENDPOINT_URL_LAMBDA).

The local invoker reloads a function when its handler or anything it imports changes: invocations in flight
finish on the old code, the next one runs the new. --no-watch turns that off.`;

async function main(): Promise<void> {
  const { values: given, positionals } = parseArgv(
    {
      ...SERVICE_OPTIONS,
      partitions: { type: 'string', default: '3' },
      invoker: { type: 'string', default: 'local' },
      'lambda-endpoint': { type: 'string' },
      'no-watch': { type: 'boolean' },
    },
    USAGE,
  );
  const values = given as { help?: boolean; stage?: string; function?: string; config?: string; partitions: string; invoker: string; 'lambda-endpoint'?: string; 'no-watch'?: boolean };
  if (values.help) {
    console.log(USAGE);
    return;
  }
  noArguments(positionals, USAGE);
  const partitions = wholeNumber({ partitions: values.partitions }, 'partitions', 1)!;
  const invoker = { ...parseInvokerChoice(values.invoker, values['lambda-endpoint']), watch: !values['no-watch'] };
  const logger = createLogger('sluice');
  const service = await loadServiceFromArgs(values);
  const run = runLocal({ service, logger, partitions, invoker, ...(values.function ? { functionFilter: values.function } : {}) });
  onShutdown(logger, run.stop);
  // A trigger that stopped for good: finish what runs, then exit non-zero naming it.
  void run.fatal.then(async (e) => {
    await run.stop().catch(() => undefined);
    exitOnError(e);
  });
  await run.ready;
}

main().catch(exitOnError);
