import { afterEach, describe, expect, it } from 'vitest';
import { commandLine, useFrontDoor } from './front-door.ts';

describe('commandLine', () => {
  afterEach(() => useFrontDoor('npm'));

  it('names npm scripts at the npm door', () => {
    expect(commandLine('start')).toBe('npm start');
    expect(commandLine('status')).toBe('npm run status');
    expect(commandLine('tail', '--topic orders', 'orders')).toBe('npm run tail -- orders');
  });

  it('names the Serverless CLI\'s commands in a service', () => {
    useFrontDoor('serverless');
    expect(commandLine('start')).toBe('npx serverless sluice start');
    expect(commandLine('tail', '--topic orders', 'orders')).toBe('npx serverless sluice tail --topic orders');
  });
});
