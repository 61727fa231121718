import { expect, it } from 'vitest';
import { resolvePort, secondPort } from './ports.ts';

it('takes the explicit port over the variable, the variable over the default', () => {
  expect(resolvePort(undefined, {}, 'X_PORT', 29092)).toBe(29092);
  expect(resolvePort(undefined, { X_PORT: ' 31000 ' }, 'X_PORT', 29092)).toBe(31000);
  expect(resolvePort(39092, { X_PORT: '31000' }, 'X_PORT', 29092)).toBe(39092);
  expect(resolvePort(undefined, { X_PORT: '' }, 'X_PORT', 29092)).toBe(29092);
});

it('names the variable or the option to fix, with an example', () => {
  expect(() => resolvePort(undefined, { X_PORT: 'abc' }, 'X_PORT', 29092)).toThrow('X_PORT must be a TCP port number (got "abc"), e.g. X_PORT=29092.');
  expect(() => resolvePort(undefined, { X_PORT: '80' }, 'X_PORT', 29092)).toThrow('X_PORT must be an integer between 1024 and 65535 (got 80), e.g. 29092.');
  expect(() => resolvePort(70000, { X_PORT: '31000' }, 'X_PORT', 29092)).toThrow('port must be an integer between 1024 and 65535 (got 70000), e.g. 29092.');
});

it('puts the second port next to the first unless given, never on it', () => {
  expect(secondPort(undefined, 29092, 'controllerPort', 29092)).toBe(29093);
  expect(secondPort(30000, 29092, 'controllerPort', 29092)).toBe(30000);
  expect(() => secondPort(undefined, 65535, 'controllerPort', 29092)).toThrow('controllerPort must be an integer between 1024 and 65535 (got 65536), e.g. 29092.');
  expect(() => secondPort(29092, 29092, 'controllerPort', 29092)).toThrow('controllerPort must differ from port (both are 29092); leave controllerPort unset to use port + 1.');
});
