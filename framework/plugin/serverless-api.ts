/**
 * The part of the Serverless Framework v3 plugin API (as osls implements it) that Sluice's
 * plugin uses, typed here so no `any` and no @types package is needed.
 */

/** `log` from the plugin utils: a function (notice level) with one method per level. */
export interface FrameworkLog {
  (message: string): void;
  error(message: string): void;
  warning(message: string): void;
  notice(message: string): void;
  info(message: string): void;
  debug(message: string): void;
  success(message: string): void;
}

export interface FrameworkProgress {
  create(options: { message: string; name?: string }): { update(message: string): void; remove(): void };
}

/** The plugin's third constructor argument in v3. */
export interface PluginUtils {
  log: FrameworkLog;
  progress: FrameworkProgress;
  writeText(text: string | string[]): void;
}

export interface SchemaHandler {
  defineFunctionEvent(provider: string, event: string, schema: object): void;
  /** Adds properties to an event the framework defines (osls 3 and 4 both have it). */
  defineFunctionEventProperties(provider: string, event: string, schema: { properties: Record<string, object> }): void;
  defineCustomProperties(schema: { properties: Record<string, object> }): void;
}

export interface Serverless {
  /** The directory holding the service file. */
  serviceDir: string;
  /** e.g. `serverless.yml`. */
  configurationFilename?: string;
  /** The service file as parsed, its variables resolved by the time hooks run. */
  configurationInput: unknown;
  service: {
    /** The service's name. */
    service: string;
    provider: {
      name: string;
      stage?: string;
      runtime?: string;
      environment?: Record<string, unknown>;
      compiledCloudFormationTemplate?: CloudFormationTemplate;
      /** What a new stack is created from (the deployment bucket), written at package:initialize. */
      coreCloudFormationTemplate?: CloudFormationTemplate;
    };
    configValidationMode?: 'error' | 'warn' | 'off';
    /** As written: a list of names, or `{ modules, localPath }`. */
    plugins?: unknown;
    package: { individually?: boolean; artifact?: string; path?: string };
    getAllFunctions(): string[];
    /** A function as the framework normalised it: `name` is its deployed name (`<service>-<stage>-<function>` by default). */
    getFunction(functionName: string): FrameworkFunction;
  };
  getProvider(name: 'aws'): { naming: { getLambdaLogicalId(functionName: string): string; getKafkaEventLogicalId(functionName: string, topic: string): string }; getRuntime(runtime?: string): string };
  configSchemaHandler: SchemaHandler;
  classes: { Error: new (message: string, code?: string) => Error };
}

/** A function of the service; package hooks may set its `package.artifact` and `environment`. */
export interface FrameworkFunction {
  name?: string;
  handler?: string;
  image?: unknown;
  runtime?: string;
  environment?: Record<string, unknown>;
  package?: { individually?: boolean; artifact?: string; disable?: boolean; patterns?: string[] };
  /** As written, variables resolved. */
  events?: unknown[];
}

/** The template `serverless package` compiles (complete with functions by `package:compileEvents`). */
export interface CloudFormationTemplate {
  Parameters?: Record<string, unknown>;
  Resources: Record<string, unknown>;
  Outputs?: Record<string, unknown>;
}

export interface CommandOption {
  usage: string;
  type: 'string' | 'boolean' | 'multiple';
  shortcut?: string;
  required?: boolean;
}

export interface CommandDefinition {
  usage: string;
  type?: 'container';
  lifecycleEvents?: string[];
  options?: Record<string, CommandOption>;
  commands?: Record<string, CommandDefinition>;
}

/** CLI options as the framework parsed them (`--function orders` → `{ function: 'orders' }`). */
export type CliOptions = Record<string, string | boolean | string[] | undefined>;
