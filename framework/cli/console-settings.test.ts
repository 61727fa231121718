import { describe, expect, it } from 'vitest';
import { consoleSettings } from './console-settings.ts';

describe('consoleSettings', () => {
  it('is read-write locally and off in the container unless SLUICE_CONSOLE says otherwise', () => {
    expect(consoleSettings('local', {})).toEqual({ mode: 'read-write', hosts: [] });
    expect(consoleSettings('container', {})).toBeUndefined();
    expect(consoleSettings('container', { SLUICE_CONSOLE: 'read-only', SLUICE_CONSOLE_HOSTS: 'poller.internal, X.example ' })).toEqual({ mode: 'read-only', hosts: ['poller.internal', 'x.example'] });
    expect(consoleSettings('local', { SLUICE_CONSOLE: 'off' })).toBeUndefined();
  });

  it('refuses another value, saying which it takes', () => {
    expect(() => consoleSettings('local', { SLUICE_CONSOLE: 'yes' })).toThrow(/SLUICE_CONSOLE=yes: use read-write .*, read-only, or off/);
  });
});
