/** `npm run generate-event -- -f <function>`: see invoke-run.ts. */
import { runNpmCommand } from './cli-command.ts';
import { GENERATE_EVENT } from './command-specs.ts';
import { generateEvent } from './invoke-run.ts';

runNpmCommand(GENERATE_EVENT, async (c) => {
  c.write(generateEvent(c.options, await c.service()));
});
