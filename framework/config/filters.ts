import { validateFilterPattern } from '../filter/validate.ts';
import { isPlainObject, showValue } from './path.ts';
import { FILTER_PATTERNS_DESCRIPTION } from './schema.ts';

/**
 * Pure: `filterPatterns` as written -> parsed pattern objects. The Serverless Framework writes
 * each pattern as a map (`- value: { amount: [{ numeric: [">", 10] }] }`), CloudFormation and
 * AWS's documentation as a JSON string; both are accepted. Each pattern is then checked against
 * what Lambda accepts for Kafka (syntax, the `value` key only, 4096 characters) by
 * framework/filter/validate.ts. Problems come back one line each, at `<where>[i]`.
 */
export interface ParsedFilterPatterns {
  patterns: Array<Record<string, unknown>>;
  problems: string[];
}

/**
 * `where` is the list's path, e.g. `functions.orders.events[0].sluice.filterPatterns`; `validate`
 * returns the problem sentences of one parsed pattern (empty when valid).
 */
export function parseFilterPatterns(
  entries: ReadonlyArray<unknown>,
  where: string,
  validate: (pattern: unknown) => string[] = validateFilterPattern,
): ParsedFilterPatterns {
  const patterns: Array<Record<string, unknown>> = [];
  const problems: string[] = [];
  entries.forEach((entry, i) => {
    const at = `${where}[${i}]`;
    let pattern: unknown = entry;
    if (typeof entry === 'string') {
      try {
        pattern = JSON.parse(entry);
      } catch (e) {
        problems.push(`${at}: must be valid JSON: ${(e as Error).message} (got ${showValue(entry)}). ${FILTER_PATTERNS_DESCRIPTION}`);
        return;
      }
    }
    if (!isPlainObject(pattern)) {
      problems.push(`${at}: must be a map, or a JSON string of one (got ${showValue(entry)}). ${FILTER_PATTERNS_DESCRIPTION}`);
      return;
    }
    const own = validate(pattern).map((sentence) => `${at}: ${sentence}`);
    if (own.length === 0) patterns.push(pattern);
    problems.push(...own);
  });
  return { patterns, problems };
}
