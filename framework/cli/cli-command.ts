/**
 * The npm front door of a command defined by a CommandSpec: parses argv with the spec, prints
 * --help from it, finds the brokers (--brokers, else KAFKA_BROKERS, else the local Kafka that
 * `npm start` runs), and stops on Ctrl-C through the signal it hands over.
 */
import { parseArgs } from 'node:util';
import { parseBrokers } from '../config/brokers.ts';
import { createLogger, type Logger } from '../observe/logger.ts';
import { fromArgv, helpText, parseArgsOptions, type CommandSpec, type ParsedOptions } from './command-spec.ts';
import { runningLocalBroker } from './local-broker.ts';
import { exitOnError } from './process.ts';

export interface CommandIo {
  brokers: string[];
  logger: Logger;
  write(line: string): void;
  signal: AbortSignal;
}

export function runNpmCommand(spec: CommandSpec, run: (o: ParsedOptions, io: CommandIo) => Promise<void>): void {
  const main = async () => {
    const { values, positionals } = parseArgs({ allowPositionals: true, options: { ...parseArgsOptions(spec), help: { type: 'boolean', short: 'h' } } });
    if (values.help) return void console.log(helpText(spec));
    const o = fromArgv(spec, values as ParsedOptions, positionals);
    const stop = new AbortController();
    process.once('SIGINT', () => stop.abort());
    await run(o, { brokers: await brokersOf(o), logger: createLogger(spec.name), write: (line) => console.log(line), signal: stop.signal });
  };
  main().catch(exitOnError);
}

async function brokersOf(o: ParsedOptions): Promise<string[]> {
  const given = typeof o.brokers === 'string' ? ['--brokers', o.brokers] : process.env.KAFKA_BROKERS?.trim() ? ['KAFKA_BROKERS', process.env.KAFKA_BROKERS.trim()] : undefined;
  if (!given) return runningLocalBroker();
  const parsed = parseBrokers(given[1]!, given[0]!);
  if (parsed.problems.length) throw new Error(parsed.problems.join('\n'));
  return parsed.brokers;
}
