/**
 * Review (7a8e35e): what the docs say of the events the history keeps a second matches
 * HISTORY_DEFAULTS.eventsPerSecond, and what they say of the invocations listed a second with a page
 * open matches listedPerSecond.
 */
import { readFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { HISTORY_DEFAULTS } from './history.ts';

const docs = ['docs/local-development.md', 'docs/performance.md'];
const read = (doc: string) => readFileSync(new URL(`../../${doc}`, import.meta.url), 'utf8').replace(/\s+/g, ' ');

it.each(docs)('%s states the rate of kept events as eventsPerSecond (%#)', (doc) => {
  const stated = [...read(doc).matchAll(/first (\d+) (?:(?:successful )?invocations a second|of each second)/g)].map((m) => Number(m[1]));
  expect(stated.length).toBeGreaterThan(0);
  expect(stated).toEqual(stated.map(() => HISTORY_DEFAULTS.eventsPerSecond));
});

it.each(docs)('%s states the rate listed with a page open as listedPerSecond (%#)', (doc) => {
  const stated = [...read(doc).matchAll(/first (\d+) a second of a function are listed/g)].map((m) => Number(m[1]));
  expect(stated.length).toBeGreaterThan(0);
  expect(stated).toEqual(stated.map(() => HISTORY_DEFAULTS.listedPerSecond));
});
