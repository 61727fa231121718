/**
 * The npm front door of a command defined by a CommandSpec: parses argv with the spec (adding
 * --config and --stage for a command that reads serverless.yml), prints --help from it, and hands
 * the command what it needs: the brokers (--brokers, else the trigger's, else KAFKA_BROKERS, else
 * the local Kafka that `npm start` runs), the service, and a signal that Ctrl-C aborts.
 */
import { parseBrokers } from '../config/brokers.ts';
import type { ServiceSpec } from '../config/types.ts';
import { createLogger, type Logger } from '../observe/logger.ts';
import { fromArgv, helpText, parseArgsOptions, parseArgv, type CommandSpec, type ParsedOptions } from './command-spec.ts';
import { runningLocalBroker } from './local-broker.ts';
import { exitOnError } from './process.ts';
import { loadServiceFromArgs } from './service-args.ts';
import { UsageError } from '../errors.ts';

export interface NpmCommand {
  options: ParsedOptions;
  /** `trigger`'s own brokers come after --brokers and before KAFKA_BROKERS. */
  brokers(trigger?: { bootstrapServers?: string[] | undefined }): Promise<string[]>;
  service(): Promise<ServiceSpec>;
  logger: Logger;
  write(line: string): void;
  signal: AbortSignal;
}

export function runNpmCommand(spec: CommandSpec, run: (c: NpmCommand) => Promise<void>): void {
  const main = async () => {
    const serviceOptions: Record<string, { type: 'string'; short: string }> = spec.service ? { config: { type: 'string', short: 'c' }, stage: { type: 'string', short: 's' } } : {};
    const { values, positionals } = parseArgv({ ...parseArgsOptions(spec), ...serviceOptions, help: { type: 'boolean', short: 'h' } }, helpText(spec));
    if (values.help) return void console.log(helpText(spec));
    const o = fromArgv(spec, values as ParsedOptions, positionals);
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    await run({
      options: o,
      brokers: (trigger) => brokersOf(o, trigger?.bootstrapServers),
      service: () => loadServiceFromArgs(values as { config?: string; stage?: string }),
      logger: createLogger(spec.name),
      write: (line) => console.log(line),
      signal: stop.signal,
    });
  };
  main().catch(exitOnError);
}

/** --brokers, else `own` (a trigger's), else KAFKA_BROKERS, else the local Kafka `npm start` runs; a malformed list is refused, naming where it came from. */
export async function brokersOf(o: ParsedOptions, own?: string[]): Promise<string[]> {
  if (typeof o.brokers !== 'string' && own?.length) return own;
  const given = typeof o.brokers === 'string' ? ['--brokers', o.brokers] : process.env.KAFKA_BROKERS?.trim() ? ['KAFKA_BROKERS', process.env.KAFKA_BROKERS.trim()] : undefined;
  if (!given) return runningLocalBroker();
  const parsed = parseBrokers(given[1]!, given[0]!);
  if (parsed.problems.length) throw new UsageError(parsed.problems.join('\n'));
  return parsed.brokers;
}

/** All of stdin, for `--event -`. */
export async function readStdin(): Promise<string> {
  if (process.stdin.isTTY) throw new UsageError('--event -: pipe the event in (e.g. from generate-event), or give a file.');
  let text = '';
  for await (const chunk of process.stdin) text += String(chunk);
  return text;
}
