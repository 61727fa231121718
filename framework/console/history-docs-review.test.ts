/** Review (7a8e35e): what the docs say of the events the history keeps a second matches HISTORY_DEFAULTS.eventsPerSecond. */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { HISTORY_DEFAULTS } from './history.ts';

it.each(['docs/local-development.md', 'docs/performance.md'])('%s states the rate of kept events as eventsPerSecond (%#)', (doc) => {
  const text = readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');
  const stated = [...text.matchAll(/first (\d+) (?:(?:successful )?invocations a second|of each second)/g)].map((m) => Number(m[1]));
  expect(stated.length).toBeGreaterThan(0);
  expect(stated).toEqual(stated.map(() => HISTORY_DEFAULTS.eventsPerSecond));
});
