import { ConfigError } from '../errors.ts';
import { formatPath, getAt, isPlainObject, type PathSegment } from './path.ts';

/**
 * The subset of Serverless variables `npm start` resolves by itself (pure): `${self:a.b}`,
 * `${env:NAME}`, `${opt:stage}`, `${opt:region}`, `${sls:stage}`, with fallbacks after commas
 * (`${env:NAME, 'default'}`, `${opt:stage, "dev"}`, `${env:A, ${self:b}}`, numbers, booleans).
 * A string that is exactly one variable takes the variable's type; otherwise values are
 * embedded in the string. Other sources (ssm:, cf:, s3:, aws:, file(...)) need AWS or files:
 * they are refused unless a fallback is given, which is then used.
 */
export interface VariableSources {
  /** The whole parsed serverless.yml, for `${self:…}`. */
  doc: unknown;
  /** For `${env:…}`. */
  env: NodeJS.ProcessEnv;
  /** Command-line options, for `${opt:…}` and `${sls:stage}` (e.g. `{ stage: 'prod' }`). */
  options: Readonly<Record<string, string | undefined>>;
}

/** How many `${self:…}` hops one value may take before we call it a loop. */
export const MAX_VARIABLE_DEPTH = 10;

/** `value` (found at `path` in the document) with every variable in it resolved; the input is not mutated. */
export function resolveVariables(value: unknown, path: readonly PathSegment[], sources: VariableSources): unknown {
  return new Resolver(sources).value(value, path, []);
}

type Token = { kind: 'text'; text: string } | { kind: 'var'; body: string; raw: string };
type Outcome =
  | { kind: 'value'; value: unknown }
  | { kind: 'missing'; reason: string; fix: string }
  | { kind: 'unsupported'; source: string };
/** The `${self:…}` addresses being resolved, outermost first: a repeat is a loop. */
type Stack = readonly string[];

class Resolver {
  constructor(private readonly sources: VariableSources) {}

  value(value: unknown, path: readonly PathSegment[], stack: Stack): unknown {
    if (typeof value === 'string') return this.string(value, path, stack);
    if (Array.isArray(value)) return value.map((item, i) => this.value(item, [...path, i], stack));
    if (isPlainObject(value)) {
      return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.value(v, [...path, k], stack)]));
    }
    return value;
  }

  private string(text: string, path: readonly PathSegment[], stack: Stack): unknown {
    const tokens = tokenize(text, path);
    const [first] = tokens;
    if (tokens.length === 1 && first?.kind === 'var') return this.variable(first, path, stack);
    if (!tokens.some((t) => t.kind === 'var')) return text;
    return tokens.map((t) => (t.kind === 'text' ? t.text : embed(this.variable(t, path, stack), t.raw, path))).join('');
  }

  private variable(token: { body: string; raw: string }, path: readonly PathSegment[], stack: Stack): unknown {
    const outcomes: Outcome[] = [];
    for (const [i, part] of splitTopLevel(token.body).entries()) {
      const outcome = this.part(part, i > 0, path, stack);
      if (outcome.kind === 'value' && outcome.value !== undefined && outcome.value !== null) return outcome.value;
      outcomes.push(outcome);
    }
    const where = `${formatPath(path) || '(top level)'}: cannot resolve ${token.raw}`;
    const unsupported = outcomes.find((o) => o.kind === 'unsupported');
    if (unsupported) {
      throw new ConfigError(
        `${where}: the "${unsupported.source}" variable source needs AWS or files, and npm start resolves only ` +
          `self:, env:, opt: and sls: variables. Give it a default (\${${token.body}, 'value'}) ` +
          `or use an environment variable (\${env:NAME}).`,
      );
    }
    const primary = outcomes[0];
    if (primary?.kind === 'missing') throw new ConfigError(`${where}: ${primary.reason}. ${primary.fix}`);
    throw new ConfigError(`${where}: it resolves to nothing. Give it a default: \${${token.body}, 'value'}.`);
  }

  private part(text: string, isFallback: boolean, path: readonly PathSegment[], stack: Stack): Outcome {
    const quoted = /^(['"])(.*)\1$/s.exec(text);
    if (quoted) return { kind: 'value', value: quoted[2] };
    if (isFallback && /^-?\d+(\.\d+)?$/.test(text)) return { kind: 'value', value: Number(text) };
    if (isFallback && (text === 'true' || text === 'false')) return { kind: 'value', value: text === 'true' };
    if (text.startsWith('${') && scan(text, 2, '}') === text.length - 1) {
      return { kind: 'value', value: this.string(text, path, stack) }; // a nested variable as the fallback
    }
    const address = this.string(text, path, stack); // addresses may hold variables: self:custom.${sls:stage}
    if (typeof address !== 'string') return { kind: 'unsupported', source: text };
    const match = /^([a-zA-Z][a-zA-Z0-9]*)([(:])(.*)$/s.exec(address);
    if (!match) return isFallback ? { kind: 'value', value: address } : { kind: 'unsupported', source: address };
    const [, source = '', separator, rest = ''] = match;
    const name = rest.trim();
    if (separator === '(') return { kind: 'unsupported', source: `${source}(...)` };
    switch (source) {
      case 'self':
        return this.self(name, path, stack);
      case 'env':
        return this.sources.env[name] !== undefined
          ? { kind: 'value', value: this.sources.env[name] }
          : { kind: 'missing', reason: `environment variable ${name} is not set`, fix: `Set ${name}, or give a default: \${env:${name}, 'value'}.` };
      case 'opt':
        return this.sources.options[name] !== undefined
          ? { kind: 'value', value: this.sources.options[name] }
          : { kind: 'missing', reason: `no --${name} option was given`, fix: `Pass --${name}, or give a default: \${opt:${name}, 'value'}.` };
      case 'sls':
        return name === 'stage' ? { kind: 'value', value: this.stage(path, stack) } : { kind: 'unsupported', source: `sls:${name}` };
      default:
        return { kind: 'unsupported', source: `${source}:` };
    }
  }

  private self(address: string, path: readonly PathSegment[], stack: Stack): Outcome {
    const where = formatPath(path) || '(top level)';
    if (stack.includes(address)) {
      const chain = [...stack, address].map((a) => `self:${a}`).join(' -> ');
      throw new ConfigError(`${where}: \${self:${address}} refers back to itself (${chain}). Replace one of them with a value.`);
    }
    if (stack.length >= MAX_VARIABLE_DEPTH) {
      throw new ConfigError(
        `${where}: \${self:${address}} is more than ${MAX_VARIABLE_DEPTH} self: references deep. Shorten the chain.`,
      );
    }
    const segments = address === '' ? [] : address.split('.');
    const raw = getAt(this.sources.doc, segments);
    if (raw === undefined || raw === null) {
      return { kind: 'missing', reason: `nothing is set at ${address}`, fix: `Set ${address}, or give a default: \${self:${address}, 'value'}.` };
    }
    return { kind: 'value', value: this.value(raw, segments, [...stack, address]) };
  }

  /** `${sls:stage}`: --stage, else provider.stage, else dev (as the Serverless Framework). */
  private stage(path: readonly PathSegment[], stack: Stack): string {
    const option = this.sources.options.stage;
    if (option !== undefined) return option;
    const provider = this.self('provider.stage', path, stack);
    return provider.kind === 'value' ? String(provider.value) : 'dev';
  }
}

function embed(value: unknown, raw: string, path: readonly PathSegment[]): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return String(value);
  const what = Array.isArray(value) ? 'a list' : 'a map';
  throw new ConfigError(`${formatPath(path)}: ${raw} resolves to ${what}, which cannot be part of a string. Reference a single value.`);
}

/** Splits text into literal text and `${…}` variables (nested ones stay inside their body). */
function tokenize(text: string, path: readonly PathSegment[]): Token[] {
  const tokens: Token[] = [];
  let start = 0;
  for (let open = text.indexOf('${'); open !== -1; open = text.indexOf('${', start)) {
    const close = scan(text, open + 2, '}');
    if (close === -1) {
      throw new ConfigError(`${formatPath(path)}: "${text}" opens a variable with \${ that is never closed. Add the missing }.`);
    }
    if (open > start) tokens.push({ kind: 'text', text: text.slice(start, open) });
    tokens.push({ kind: 'var', body: text.slice(open + 2, close).trim(), raw: text.slice(open, close + 1) });
    start = close + 1;
  }
  if (start < text.length) tokens.push({ kind: 'text', text: text.slice(start) });
  return tokens;
}

/** A variable body split on its top-level commas: `env:A, ${self:b}, 'c'` -> three parts. */
function splitTopLevel(body: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let comma = scan(body, 0, ','); comma !== -1; comma = scan(body, start, ',')) {
    parts.push(body.slice(start, comma).trim());
    start = comma + 1;
  }
  parts.push(body.slice(start).trim());
  return parts;
}

/** Index of the first `stop` character from `from` that is outside quotes and nested `${…}`, or -1. */
function scan(text: string, from: number, stop: '}' | ','): number {
  let depth = 0;
  let quote: string | undefined;
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote !== undefined) {
      if (c === quote) quote = undefined;
    } else if (c === "'" || c === '"') {
      quote = c;
    } else if (c === '$' && text[i + 1] === '{') {
      depth++;
      i++;
    } else if (c === '}' && depth > 0) {
      depth--;
    } else if (c === stop && depth === 0) {
      return i;
    }
  }
  return -1;
}
