/**
 * `tsx infra/kafka/cli.ts start|stop|status|logs [--lines N]`: manage the local Kafka by hand.
 * start returns once the broker is ready and leaves it running in the background.
 */
import { KAFKA_VERSION, brokerStatus, ensureBroker, stopBroker } from './broker.ts';
import { logTails } from './logs.ts';

const USAGE = 'usage: tsx infra/kafka/cli.ts start|stop|status|logs [--lines N]\n' +
  '  env: SLUICE_KAFKA_PORT (default 29092), SLUICE_KAFKA_DIR (default .sluice/kafka)';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const log = (line: string): void => console.error(line);
  switch (command) {
    case 'start': {
      const broker = await ensureBroker({ log });
      console.log(broker.bootstrap);
      return 0;
    }
    case 'stop': {
      const stopped = await stopBroker({ log });
      if (!stopped) log('No local Kafka is running.');
      return 0;
    }
    case 'status': {
      const s = await brokerStatus();
      if (!s.running) console.log(`stopped (Kafka ${KAFKA_VERSION}; logs ${s.logFile})`);
      else console.log(`${s.ready ? 'running' : 'running, not answering'} at ${s.bootstrap} (pid ${s.pid}; Kafka ${KAFKA_VERSION}; logs ${s.logFile})`);
      return s.running ? 0 : 3;
    }
    case 'logs': {
      const lines = parseLines(rest);
      const s = await brokerStatus();
      console.log(await logTails({ logFile: s.logFile, outFile: s.outFile }, lines));
      return 0;
    }
    case undefined:
    case '-h':
    case '--help':
      console.log(USAGE);
      return command === undefined ? 2 : 0;
    default:
      console.error(`unknown command "${command}"\n${USAGE}`);
      return 2;
  }
}

function parseLines(args: readonly string[]): number {
  const i = args.indexOf('--lines');
  if (i === -1) return 30;
  const n = Number(args[i + 1]);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`--lines needs a positive integer (got "${args[i + 1] ?? ''}"), e.g. --lines 100`);
  return n;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err: unknown) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  },
);
