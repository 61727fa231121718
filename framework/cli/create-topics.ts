/** `npm run create-topics -- [topic]`: see create-topics-run.ts. */
import { runNpmCommand } from './cli-command.ts';
import { CREATE_TOPICS } from './command-specs.ts';
import { runCreateTopics } from './create-topics-run.ts';

runNpmCommand(CREATE_TOPICS, async (c) => {
  const { created, existing } = await runCreateTopics(c.options, { service: c.service, brokers: (t) => c.brokers(t), logger: c.logger, write: c.write });
  console.error(`${created.length} created, ${existing.length} already there`);
});
