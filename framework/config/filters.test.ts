import { describe, expect, it } from 'vitest';
import { parseFilterPatterns } from './filters.ts';
import { FILTER_PATTERNS_DESCRIPTION } from './schema.ts';

const AT = 'functions.orders.events[0].sluice.filterPatterns';
const noProblems = () => [];
const parse = (entries: unknown[]) => parseFilterPatterns(entries, AT, noProblems);
const AMOUNT = { value: { amount: [{ numeric: ['>', 10] }] } };

/** What JSON.parse says about `text` on this Node version. */
function jsonError(text: string): string {
  try {
    JSON.parse(text);
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error(`${text} is valid JSON`);
}

describe('parseFilterPatterns', () => {
  it('is empty for no patterns', () => {
    expect(parse([])).toEqual({ patterns: [], problems: [] });
  });

  it('takes patterns written as maps, as the Serverless Framework writes them', () => {
    expect(parse([AMOUNT, { value: { region: [{ prefix: 'eu-' }] } }])).toEqual({ patterns: [AMOUNT, { value: { region: [{ prefix: 'eu-' }] } }], problems: [] });
  });

  it('parses patterns written as JSON strings, as CloudFormation writes them', () => {
    expect(parse([JSON.stringify(AMOUNT), AMOUNT])).toEqual({ patterns: [AMOUNT, AMOUNT], problems: [] });
  });

  it('refuses a string that is not JSON, with the parse error and the index', () => {
    const text = '{ value: [1] }'; // a YAML-style map in a string
    expect(parse([AMOUNT, text])).toEqual({
      patterns: [AMOUNT],
      problems: [`${AT}[1]: must be valid JSON: ${jsonError(text)} (got "{ value: [1] }"). ${FILTER_PATTERNS_DESCRIPTION}`],
    });
    expect(parse(['']).problems).toEqual([`${AT}[0]: must be valid JSON: ${jsonError('')} (got ""). ${FILTER_PATTERNS_DESCRIPTION}`]);
  });

  it('refuses JSON that is not a map', () => {
    expect(parse(['[1]', '5', 'null']).problems).toEqual([
      `${AT}[0]: must be a map, or a JSON string of one (got "[1]"). ${FILTER_PATTERNS_DESCRIPTION}`,
      `${AT}[1]: must be a map, or a JSON string of one (got "5"). ${FILTER_PATTERNS_DESCRIPTION}`,
      `${AT}[2]: must be a map, or a JSON string of one (got "null"). ${FILTER_PATTERNS_DESCRIPTION}`,
    ]);
  });

  it("reports the filter validator's sentences at each pattern's own path", () => {
    const validate = (pattern: unknown) => (JSON.stringify(pattern).includes('numeric') ? [] : ['value.status: must be a list of rules, e.g. ["ERROR"].']);
    expect(parseFilterPatterns([AMOUNT, '{"value":{"status":"ERROR"}}'], AT, validate)).toEqual({
      patterns: [AMOUNT],
      problems: [`${AT}[1]: value.status: must be a list of rules, e.g. ["ERROR"].`],
    });
  });

  it('checks each pattern with the filter validator by default', () => {
    const { patterns, problems } = parseFilterPatterns([AMOUNT, '{"value":{"status":"ERROR"}}', {}], AT);
    expect(patterns).toEqual([AMOUNT]);
    expect(problems.length).toBeGreaterThanOrEqual(2);
    expect(problems.every((p) => p.startsWith(`${AT}[1]: `) || p.startsWith(`${AT}[2]: `))).toBe(true);
    expect(problems.some((p) => p.startsWith(`${AT}[2]: `))).toBe(true);
  });
});
