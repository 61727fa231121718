/** `npm run redrive -- <destination topic>`: see redrive-run.ts. */
import { runNpmCommand } from './cli-command.ts';
import { REDRIVE } from './command-specs.ts';
import { redriveSummary, runRedrive } from './redrive-run.ts';

runNpmCommand(REDRIVE, async (o, io) => {
  const report = await runRedrive(o, io);
  io.write(redriveSummary(report, String(o.topic), o['dry-run'] === true));
});
