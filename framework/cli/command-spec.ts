/**
 * One definition per CLI command, read by both front doors: `npm run <command>` (node's
 * parseArgs) and `serverless sluice <command>` (the plugin's commands), so the two take the same
 * flags. A command's positional argument (`tail <topic>`) is also a flag (`--topic`), since the
 * Serverless CLI takes no positionals after a command.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { UsageError } from '../errors.ts';

export interface OptionSpec {
  type: 'string' | 'boolean';
  short?: string;
  usage: string;
}

export interface CommandSpec {
  name: string;
  usage: string;
  /** The option a positional argument fills, if the command takes one. */
  positional?: string;
  options: Record<string, OptionSpec>;
  /** Reads serverless.yml: the npm front door adds --config and --stage (the Serverless CLI has its own). */
  service?: boolean;
  /** Lines of examples for --help, written for npm (`npm run <name> -- …`). */
  examples: string[];
}

export type ParsedOptions = Record<string, string | boolean | undefined>;

/** node:util parseArgs's `options`. */
export function parseArgsOptions(spec: CommandSpec): Record<string, { type: 'string' | 'boolean'; short?: string }> {
  return Object.fromEntries(Object.entries(spec.options).map(([name, o]) => [name, { type: o.type, ...(o.short ? { short: o.short } : {}) }]));
}

/** The Serverless Framework's command `options`. */
export function pluginOptions(spec: CommandSpec): Record<string, { usage: string; type: 'string' | 'boolean'; shortcut?: string }> {
  return Object.fromEntries(Object.entries(spec.options).map(([name, o]) => [name, { usage: o.usage, type: o.type, ...(o.short ? { shortcut: o.short } : {}) }]));
}

/** parseArgs's result as the command's options: the positional fills its option. */
export function fromArgv(spec: CommandSpec, values: ParsedOptions, positionals: string[]): ParsedOptions {
  if (positionals.length > 1 || (positionals.length === 1 && !spec.positional)) throw new UsageError(`Unexpected argument "${positionals[spec.positional ? 1 : 0]}".\n\n${helpText(spec)}`);
  if (spec.positional && positionals[0] !== undefined) {
    if (values[spec.positional] !== undefined) throw new UsageError(`Give the ${spec.positional} once: as an argument or as --${spec.positional}.`);
    return { ...values, [spec.positional]: positionals[0] };
  }
  return values;
}

/** The plugin's options, the ones this command knows. */
export function fromPlugin(spec: CommandSpec, options: Record<string, unknown>): ParsedOptions {
  const out: ParsedOptions = {};
  for (const [name, o] of Object.entries(spec.options)) {
    const v = options[name];
    if (v === undefined) continue;
    out[name] = o.type === 'boolean' ? v === true || v === 'true' : String(v);
  }
  return out;
}

export function helpText(spec: CommandSpec): string {
  const width = Math.max(...Object.keys(spec.options).map((n) => n.length + 4));
  return [
    `${spec.usage}`,
    '',
    `Usage: npm run ${spec.name} -- ${spec.positional ? `<${spec.positional}> ` : ''}[options]`,
    `       npx serverless sluice ${spec.name} ${spec.positional ? `--${spec.positional} <${spec.positional}> ` : ''}[options]`,
    '',
    ...Object.entries(spec.options).map(([name, o]) => `  ${(o.short ? `-${o.short}, ` : '    ') + `--${name}`.padEnd(width)}  ${o.usage}`),
    '',
    ...spec.examples.map((e) => `  ${e}`),
  ].join('\n');
}

/** A string option as a whole number at least `min`, or an error naming the flag. */
export function wholeNumber(o: ParsedOptions, name: string, min = 0): number | undefined {
  const v = o[name];
  if (v === undefined || v === false) return undefined;
  const n = typeof v === 'string' && /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isInteger(n) || n < min) throw new UsageError(`--${name} ${String(v)}: give a whole number${min > 0 ? ` of at least ${min}` : ''}.`);
  return n;
}

/** An options-only command given an argument: said, with where a function's name goes (every such command takes --function). */
export function noArguments(positionals: string[], usage: string): void {
  if (positionals.length === 0) return;
  throw new UsageError(`Unexpected argument '${positionals[0]}': this command takes options only (a function is named with --function <name>).\n\n${usage}`);
}

/**
 * node's parseArgs, whose refusals (an unknown option, a missing value) become a UsageError that
 * says what was wrong and shows `usage`: they reached the user as a TypeError with its stack.
 */
export interface ParsedArgv {
  values: Record<string, string | boolean | Array<string | boolean> | undefined>;
  positionals: string[];
}

export function parseArgv(options: NonNullable<ParseArgsConfig['options']>, usage: string, args?: string[]): ParsedArgv {
  try {
    return parseArgs({ allowPositionals: true, options, ...(args ? { args } : {}) });
  } catch (e) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string' || !code.startsWith('ERR_PARSE_ARGS')) throw e;
    // "Unknown option '-t'. To specify a positional argument starting with a '-', …": the first sentence says it.
    const said = (e as Error).message.replace(/\. To specify a positional argument[\s\S]*$/, '.');
    throw new UsageError(`${said}\n\n${usage}`);
  }
}
