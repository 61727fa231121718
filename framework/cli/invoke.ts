/** `npm run invoke -- -f <function> --event <file|->` or `--offset <n>`: see invoke-run.ts. */
import { readStdin, runNpmCommand } from './cli-command.ts';
import { INVOKE } from './command-specs.ts';
import { runInvoke } from './invoke-run.ts';

runNpmCommand(INVOKE, async (c) => {
  const ok = await runInvoke(c.options, { service: await c.service(), brokers: c.brokers, logger: c.logger, write: c.write, stdin: readStdin });
  if (!ok) process.exitCode = 1;
});
