/** `npm run redrive -- <destination topic>`: see redrive-run.ts. */
import { runNpmCommand } from './cli-command.ts';
import { REDRIVE } from './command-specs.ts';
import { redriveSummary, runRedrive } from './redrive-run.ts';

runNpmCommand(REDRIVE, async (c) => {
  const report = await runRedrive(c.options, { brokers: await c.brokers(), logger: c.logger, write: c.write });
  c.write(redriveSummary(report, String(c.options.topic), c.options['dry-run'] === true));
});
