/**
 * `tsx infra/kafka/cli.ts start|stop|status|logs [--lines N]`: manage the local Kafka by hand.
 * start returns once the broker is ready and leaves it running in the background.
 */
import { parseLines, runCli, usage } from '../cli.ts';
import { KAFKA_VERSION, brokerStatus, ensureBroker, stopBroker } from './broker.ts';
import { clusterStatus, ensureCluster, stopCluster } from './cluster.ts';
import { logTails } from './logs.ts';

const USAGE = 'usage: npm run kafka -- start|stop|status|logs [--lines N] [--nodes 3]\n' +
  '  env: SLUICE_KAFKA_PORT (default 29092), SLUICE_KAFKA_DIR (default .sluice/kafka)\n' +
  '  --nodes 3: a three-node cluster in .sluice/kafka-cluster on ports 29192, 29194, 29196 (start, stop, status)';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const log = (line: string): void => console.error(line);
  if (parseNodes(rest) === 3) return clusterCommand(command, log);
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
    default:
      return usage(command, USAGE);
  }
}

async function clusterCommand(command: string | undefined, log: (line: string) => void): Promise<number> {
  switch (command) {
    case 'start': {
      const cluster = await ensureCluster({ log });
      console.log(cluster.bootstrap.join(','));
      return 0;
    }
    case 'stop':
      if (!(await stopCluster({ log }))) log('No node of the local Kafka cluster is running.');
      return 0;
    case 'status': {
      const nodes = await clusterStatus();
      for (const n of nodes) console.log(`node ${n.id} ${n.pid ? `running at ${n.bootstrap} (pid ${n.pid})` : 'stopped'}; logs ${n.logFile}`);
      return nodes.every((n) => n.pid) ? 0 : 3;
    }
    default:
      console.error(`--nodes 3 goes with start, stop or status\n${USAGE}`);
      return 2;
  }
}

/** 1 (the single broker) unless --nodes says 3. */
function parseNodes(args: readonly string[]): 1 | 3 {
  const i = args.indexOf('--nodes');
  if (i === -1) return 1;
  const n = Number(args[i + 1]);
  if (n !== 1 && n !== 3) throw new Error(`--nodes takes 1 (the single broker) or 3 (a local cluster), got "${args[i + 1] ?? ''}"`);
  return n;
}

runCli(main);
