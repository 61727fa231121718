/**
 * The poller container's entry point (infra/deploy/Dockerfile; ECS runs it compiled, as
 * `node dist/framework/cli/container.js`). It polls the triggers that `serverless
 * package` wrote into SLUICE_TRIGGERS (framework/plugin/deploy/container-config.ts) and invokes
 * the deployed Lambdas with the lambda invoker; region and credentials come from the task (the
 * SDK's chain). Every `custom.sluice.metrics.period` it writes CloudWatch EMF lines to stdout. Topics are never created here: they must exist on the cluster. SIGTERM (ECS
 * stopping the task) starts no more chunks, lets in-flight invocations and destination sends
 * finish and commits them until shortly before SLUICE_STOP_DEADLINE_MS (the task's StopTimeout,
 * after which ECS sends SIGKILL), then leaves the groups without what still runs and exits.
 * SLUICE_GROUP_INSTANCE_ID, when set, is the static member id of its librdkafka triggers.
 */
import { INSTANCE_ID_ENV, withInstanceId } from '../config/engine.ts';
import { createLambdaInvoker } from '../invoke/lambda.ts';
import { Instrumentation } from '../observe/events.ts';
import { createLogger } from '../observe/logger.ts';
import { invocationsAtOnce } from '../invoke/select.ts';
import { parseContainerConfig, TRIGGERS_ENV } from '../plugin/deploy/container-config.ts';
import { runService, type RunningService } from '../poller/service-runner.ts';
import { inFlightBudgetMs } from '../poller/stop-deadline.ts';
import { httpSettings } from './http-settings.ts';
import { consoleSettings } from './console-settings.ts';
import { InvocationHistory } from '../console/history.ts';
import { exitOnError, onShutdown } from './process.ts';

async function main(): Promise<void> {
  const logger = createLogger('sluice');
  const parsed = parseContainerConfig(process.env[TRIGGERS_ENV]);
  const instance = withInstanceId(parsed.triggers, process.env[INSTANCE_ID_ENV]);
  if (instance.ignored.length) logger.warn(`${INSTANCE_ID_ENV} is set, but ${instance.ignored.join(', ')} run(s) on kafkajs, which has no static membership: left without it`);
  const config = { ...parsed, triggers: instance.triggers };
  const stopBudgetMs = inFlightBudgetMs(process.env);
  const invoker = createLambdaInvoker({ functionNames: config.functionNames, logger: logger.child('lambda'), maxConcurrency: invocationsAtOnce(config.triggers) });
  let running: RunningService | undefined;
  const http = httpSettings('container', process.env);
  // CloudWatch metrics as EMF lines on stdout, which the awslogs driver ships (observe/emf.ts).
  const emf = {
    settings: { ...config.metrics, service: `${config.service}-${config.stage}`, functionNames: config.functionNames },
    write: (line: string) => void process.stdout.write(`${line}\n`),
  };
  // Off in the task unless SLUICE_CONSOLE says otherwise (console-settings.ts): handlers run on Lambda, so it shows no log lines.
  const onPage = consoleSettings('container', process.env);
  const pageConsole = onPage ? { console: { ...onPage, history: new InvocationHistory(), service: config.service, stage: config.stage } } : {};
  const starting = runService({ triggers: config.triggers, invoker, logger, events: new Instrumentation(), http, emf, ...pageConsole }).then((r) => {
    running = r;
    // A trigger that stopped for good: finish what runs, then exit non-zero so ECS replaces the task.
    void r.fatal.then(async (e) => {
      await r.stop().catch(() => undefined);
      await invoker.close();
      exitOnError(e);
    });
  });
  onShutdown(logger, async () => {
    const deadlineAt = stopBudgetMs === undefined ? undefined : Date.now() + stopBudgetMs;
    // A stop during start waits for it: nothing the start brings up may outlive the stop.
    await starting.catch(() => undefined);
    await running?.stop(deadlineAt);
    await invoker.close();
  });
  await starting;
  for (const t of config.triggers) {
    logger.info(`polling ${t.topic} for ${config.functionNames[t.functionName]}`, { group: t.consumerGroupId, brokers: t.bootstrapServers?.join(','), batchSize: t.batchSize });
  }
  logger.info(`ready: ${config.service} (${config.stage}), ${config.triggers.length} trigger(s); health on ${running?.httpUrl}/healthz${running?.consoleUrl ? `, console (${onPage!.mode}) on ${running.consoleUrl}` : ''}`);
}

main().catch(exitOnError);
