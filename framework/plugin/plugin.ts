/**
 * Sluice's Serverless Framework plugin (osls, v3 plugin API). The constructor only registers
 * the configuration schemas and declares commands and hooks; configuration is read in hooks,
 * where the framework has resolved its variables. The hooks' work lives in ./commands.ts,
 * loaded on first use (it pulls in kafkajs, esbuild and the poller, which `serverless package`
 * does not need), and `serverless package`'s in ./build/package-hook.ts (the functions as
 * esbuild bundles) and ./deploy/package-hook.ts (the poller's ECS service in the template). index.cjs is the file serverless.yml lists; it loads this one.
 */
import { pluginOptions } from '../cli/command-spec.ts';
import { CREATE_TOPICS, GENERATE_EVENT, INVOKE, REDRIVE, TAIL } from '../cli/command-specs.ts';
import { useFrontDoor } from '../front-door.ts';
import { KAFKA_EVENT_PROPERTIES } from './deploy/native-queue.ts';
import { PRODUCE_OPTIONS } from './produce-options.ts';
import type { CliOptions, CommandDefinition, PluginUtils, Serverless } from './serverless-api.ts';

type Commands = typeof import('./commands.ts');
type Service = typeof import('./service.ts');
type PackageHook = typeof import('./deploy/package-hook.ts');
type BuildHook = typeof import('./build/package-hook.ts');
type DeployCheck = typeof import('./deploy/deploy-check.ts');
/** Imports a module of this directory as native ESM (tsx's tsImport, from index.cjs). */
export type LoadModule = (specifier: string) => Promise<unknown>;

const functionOption = { usage: 'Only the triggers of this function', shortcut: 'f', type: 'string' } as const;

export const COMMANDS: Record<string, CommandDefinition> = {
  sluice: {
    usage: 'Sluice: run the Kafka pollers locally, inspect consumer groups, send records',
    lifecycleEvents: ['help'],
    commands: {
      start: {
        usage: 'Run the pollers of the sluice triggers locally (a local Kafka when no brokers are set)',
        lifecycleEvents: ['run'],
        options: {
          function: functionOption,
          partitions: { usage: 'Partitions of topics created on the local Kafka (default 3)', type: 'string' },
          invoker: { usage: 'What runs the handlers: local (default, worker threads) or lambda (deployed, or --lambda-endpoint)', type: 'string' },
          'lambda-endpoint': { usage: "With --invoker lambda: the Lambda API to call, e.g. serverless-offline's http://localhost:3002", type: 'string' },
          // osls reads --no-watch as watch: false (and refused an option named no-watch: "unrecognized CLI options: --watch").
          watch: { usage: 'Reload a function when its sources change (default); --no-watch turns it off', type: 'boolean' },
        },
      },
      lag: {
        usage: "Show each trigger's consumer group: members, committed and log-end offsets, lag per partition",
        lifecycleEvents: ['show'],
        options: { function: functionOption, json: { usage: 'Print JSON', type: 'boolean' } },
      },
      status: {
        usage: "Show each trigger's consumer group as the brokers see it: state, assignor, coordinator, members, offsets and lag",
        lifecycleEvents: ['show'],
        options: {
          function: functionOption,
          json: { usage: 'Print JSON', type: 'boolean' },
          watch: { usage: 'Refresh every few seconds until Ctrl-C', shortcut: 'w', type: 'boolean' },
          interval: { usage: 'Seconds between refreshes (default 2); implies --watch', type: 'string' },
        },
      },
      tail: { usage: TAIL.usage, lifecycleEvents: ['read'], options: { ...pluginOptions(TAIL), topic: { ...pluginOptions(TAIL).topic!, required: true } } },
      redrive: { usage: REDRIVE.usage, lifecycleEvents: ['send'], options: { ...pluginOptions(REDRIVE), topic: { ...pluginOptions(REDRIVE).topic!, required: true } } },
      invoke: { usage: INVOKE.usage, lifecycleEvents: ['run'], options: pluginOptions(INVOKE) },
      'generate-event': { usage: GENERATE_EVENT.usage, lifecycleEvents: ['print'], options: pluginOptions(GENERATE_EVENT) },
      'create-topics': { usage: CREATE_TOPICS.usage, lifecycleEvents: ['create'], options: pluginOptions(CREATE_TOPICS) },
      produce: {
        usage: 'Send records to a topic: values after the options, --value, --count sample records, or JSON lines ({"key","value","headers"} or any JSON value) from --file or stdin',
        lifecycleEvents: ['send'],
        options: PRODUCE_OPTIONS,
      },
    },
  },
};

/** `serverless sluice` alone: what it offers. */
function commandList(): string {
  const sub = COMMANDS.sluice!.commands ?? {};
  const width = Math.max(...Object.keys(sub).map((n) => n.length));
  return [
    'serverless sluice <command> [options]   (serverless sluice <command> --help for its options)',
    ...Object.entries(sub).map(([name, c]) => `  ${name.padEnd(width)}  ${c.usage}`),
  ].join('\n');
}

export interface SluicePluginClass {
  new (serverless: Serverless, options: CliOptions, utils: PluginUtils): object;
}

export function createSluicePlugin(load: LoadModule): SluicePluginClass {
  let loadedCommands: Promise<Commands> | undefined;
  let loadedService: Promise<Service> | undefined;
  let loadedPackageHook: Promise<PackageHook> | undefined;
  let loadedBuildHook: Promise<BuildHook> | undefined;
  const commands = () => (loadedCommands ??= load('./commands.ts') as Promise<Commands>);
  const service = () => (loadedService ??= load('./service.ts') as Promise<Service>);
  const packageHook = () => (loadedPackageHook ??= load('./deploy/package-hook.ts') as Promise<PackageHook>);
  const buildHook = () => (loadedBuildHook ??= load('./build/package-hook.ts') as Promise<BuildHook>);

  return class SluicePlugin {
    readonly commands = COMMANDS;
    readonly hooks: Record<string, () => Promise<void>>;

    constructor(serverless: Serverless, options: CliOptions, utils: PluginUtils) {
      // A service has no npm start: messages name `npx serverless sluice …` (front-door.ts).
      useFrontDoor('serverless');
      // osls learns only that these are objects: Sluice's own validation (checkService, on every
      // command) checks them against the whole schema with the messages npm start gives ("Did you
      // mean "batchSize"?", the setting explained). Given the whole schema, osls's terser
      // "unrecognized property 'batchsize'" and "must be >= 1" won on this door.
      const schemas = serverless.configSchemaHandler;
      schemas.defineFunctionEvent('aws', 'sluice', { type: 'object' });
      schemas.defineCustomProperties({ properties: { sluice: { type: 'object' } } });
      // AWS's queue mode on the framework's own kafka event, which osls does not know yet (deploy/native-queue.ts).
      schemas.defineFunctionEventProperties('aws', 'kafka', KAFKA_EVENT_PROPERTIES);

      const context = { serverless, options, utils };
      this.hooks = {
        // Every command: the rules a JSON schema cannot express (cross-field, per-function), with the fix.
        initialize: async () => (await service()).checkService(context),
        'sluice:help': async () => utils.writeText(commandList()),
        'sluice:start:run': async () => (await commands()).start(context),
        'sluice:lag:show': async () => (await commands()).lag(context),
        'sluice:status:show': async () => (await commands()).status(context),
        'sluice:produce:send': async () => (await commands()).produce(context),
        'sluice:tail:read': async () => (await commands()).tail(context),
        'sluice:redrive:send': async () => (await commands()).redrive(context),
        'sluice:invoke:run': async () => (await commands()).invoke(context),
        'sluice:generate-event:print': async () => (await commands()).generateEvent(context),
        'sluice:create-topics:create': async () => (await commands()).createTopics(context),
        // Before the framework zips the service: the Node.js functions as esbuild bundles (build/).
        'before:package:createDeploymentArtifacts': async () => (await buildHook()).bundleFunctions(context),
        // `serverless deploy function -f <name>` packages that one function.
        'before:package:function:package': async () =>
          (await buildHook()).bundleFunctions(context, typeof options.function === 'string' ? options.function : undefined),
        // The compiled template holds every function by now: add the poller's ECS service (deploy/).
        // Native kafka events with consumptionMode: Queue get it on their event source mappings first.
        'package:compileEvents': async () => {
          const hook = await packageHook();
          hook.markNativeQueueEvents(context);
          await hook.addPollerService(context);
        },
        // Packaged (or restored from --package): a parameter of the poller's with no value stops the deploy here, not in CloudFormation.
        'before:deploy:deploy': async () => ((await load('./deploy/deploy-check.ts')) as DeployCheck).checkDeployParameters(context),
      };
    }
  };
}
