/** `npm run tail -- <topic>`: see tail-run.ts. */
import { runNpmCommand } from './cli-command.ts';
import { TAIL } from './command-specs.ts';
import { runTail } from './tail-run.ts';

runNpmCommand(TAIL, async (o, io) => {
  await runTail(o, { ...io, ready: (line) => console.error(line) });
});
