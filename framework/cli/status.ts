/**
 * `npm run status`: for each Sluice trigger of ./serverless.yml, its consumer group as the
 * brokers see it: state, protocol and assignor, coordinator (and the __consumer_offsets
 * partition it leads), members with their partitions, and committed / log-end / lag per
 * partition. Brokers as for `npm run lag`.
 */
import { createLogger } from '../observe/logger.ts';
import { noArguments, parseArgv } from './command-spec.ts';
import { readStatus } from './lag-read.ts';
import { localMetricsUrl } from './poller-metrics.ts';
import { localBrokersFor } from './local-broker.ts';
import { exitOnError } from './process.ts';
import { loadServiceFromArgs, selectTriggers, SERVICE_OPTIONS } from './service-args.ts';
import { DEFAULT_WATCH_SECONDS, runStatus, watchSeconds } from './status-run.ts';

const USAGE = `Usage: npm run status [-- --function <name>] [--stage <stage>] [--config <file>] [--json] [--watch [--interval <s>]]

Shows each trigger's consumer group as the brokers see it: state, protocol and assignor, the
coordinator and the __consumer_offsets partition it leads, every member with its client id, host
and partitions, and per partition the committed offset, the log-end offset, the lag and the owner
(with parallelizationFactor > 1 also the records done beyond the committed offset, and the
invocations in flight as the local poller's /metrics tells).
--json prints the same as JSON; --watch refreshes every ${DEFAULT_WATCH_SECONDS} s until Ctrl-C (--interval <s>
sets the seconds and implies --watch).`;

async function main(): Promise<void> {
  const { values: given, positionals } = parseArgv({ ...SERVICE_OPTIONS, json: { type: 'boolean' }, watch: { type: 'boolean', short: 'w' }, interval: { type: 'string' } }, USAGE);
  const values = given as { help?: boolean; stage?: string; function?: string; config?: string; json?: boolean; watch?: boolean; interval?: string };
  if (values.help) {
    console.log(USAGE);
    return;
  }
  noArguments(positionals, USAGE);
  const every = watchSeconds(values.watch, values.interval);
  const service = await loadServiceFromArgs(values);
  const triggers = selectTriggers(service, values.function);
  const defaultBrokers = await localBrokersFor(triggers);
  const logger = createLogger('status');
  const stop = new AbortController();
  // Only a watch waits for Ctrl-C; a single read keeps Node's default (exit at once).
  if (every !== undefined) process.once('SIGINT', () => stop.abort());
  await runStatus({
    read: () => readStatus({ triggers, logger, pollerMetrics: localMetricsUrl(service), ...(defaultBrokers ? { defaultBrokers } : {}) }),
    write: (text) => console.log(text),
    json: values.json === true,
    watchSeconds: every,
    tty: process.stdout.isTTY === true,
    signal: stop.signal,
  });
}

main().catch(exitOnError);
