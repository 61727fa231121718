/** `npm run tail -- <topic>`: see tail-run.ts. */
import { runNpmCommand } from './cli-command.ts';
import { TAIL } from './command-specs.ts';
import { runTail } from './tail-run.ts';

runNpmCommand(TAIL, async (c) => {
  await runTail(c.options, { brokers: await c.brokers(), logger: c.logger, write: c.write, ready: (line) => console.error(line), signal: c.signal });
});
