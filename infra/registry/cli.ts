/**
 * `npm run registry -- start|stop|status|logs [--lines N]`: manage the local schema registry by
 * hand. start returns once it is ready, prints the Confluent API base URL, and leaves it running.
 */
import { parseLines, runCli, usage } from '../cli.ts';
import { REGISTRY_VERSION, ensureRegistry, registryStatus, stopRegistry } from './registry.ts';
import { registryLogTail } from './logs.ts';

const USAGE = 'usage: npm run registry -- start|stop|status|logs [--lines N]\n' +
  '  env: SLUICE_REGISTRY_PORT (default 28081; management on port + 1), SLUICE_REGISTRY_DIR (default .sluice/registry),\n' +
  '       SLUICE_REGISTRY_JAVA_HOME (a JDK 21+; found automatically when unset)';

async function main(argv: readonly string[]): Promise<number> {
  const [command, ...rest] = argv;
  const log = (line: string): void => console.error(line);
  switch (command) {
    case 'start': {
      const registry = await ensureRegistry({ log });
      console.log(registry.url);
      return 0;
    }
    case 'stop': {
      if (!(await stopRegistry({ log }))) log('No local schema registry is running.');
      return 0;
    }
    case 'status': {
      const s = await registryStatus();
      if (!s.running) console.log(`stopped (Apicurio Registry ${REGISTRY_VERSION}; logs ${s.logFile})`);
      else console.log(`${s.ready ? 'running' : 'running, not ready'} at ${s.url} (pid ${s.pid}; Apicurio Registry ${REGISTRY_VERSION}; logs ${s.logFile})`);
      return s.running ? 0 : 3;
    }
    case 'logs': {
      const s = await registryStatus();
      console.log(await registryLogTail(s.logFile, parseLines(rest)));
      return 0;
    }
    default:
      return usage(command, USAGE);
  }
}

runCli(main);
