import { expect, it } from 'vitest';
import { parseJsonState } from './json-state.ts';

interface State { pid: number; url: string }
const parse = (text: string) => parseJsonState<State>(text, { pid: 'int', url: 'string' });

it('keeps the named fields of their kind and drops the rest', () => {
  expect(parse('{"pid": 7, "url": "http://x", "extra": true}')).toEqual({ pid: 7, url: 'http://x' });
});

it('treats torn, foreign or partial files as no state', () => {
  expect(parse('{"pid": 7')).toBeUndefined();
  expect(parse('null')).toBeUndefined();
  expect(parse('"text"')).toBeUndefined();
  expect(parse('{"pid": "7", "url": "http://x"}')).toBeUndefined();
  expect(parse('{"pid": 7.5, "url": "http://x"}')).toBeUndefined();
  expect(parse('{"pid": 7}')).toBeUndefined();
});
