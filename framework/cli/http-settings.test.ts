import { describe, expect, it } from 'vitest';
import { configErrorMessage } from '../config/testing.ts';
import { httpSettings } from './http-settings.ts';

describe('httpSettings', () => {
  it('defaults to 9464 on loopback locally (movable when taken), on every interface in the container', () => {
    expect(httpSettings('local', {})).toEqual({ host: '127.0.0.1', port: 9464, explicit: false });
    expect(httpSettings('container', {})).toEqual({ host: '0.0.0.0', port: 9464, explicit: true });
  });

  it('takes SLUICE_HTTP_PORT over custom.sluice.http.port, both as the user\'s choice', () => {
    expect(httpSettings('local', { SLUICE_HTTP_PORT: '8081' }, { http: { port: 8080 } })).toEqual({ host: '127.0.0.1', port: 8081, explicit: true });
    expect(httpSettings('local', {}, { http: { port: 0 } })).toEqual({ host: '127.0.0.1', port: 0, explicit: true });
  });

  it('refuses a SLUICE_HTTP_PORT that is not a port, saying what to set', () => {
    expect(configErrorMessage(() => httpSettings('local', { SLUICE_HTTP_PORT: '80a' }))).toBe('SLUICE_HTTP_PORT=80a: not a TCP port; set it to an integer 0–65535 (0: any free port), or unset it for 9464.');
    expect(() => httpSettings('container', { SLUICE_HTTP_PORT: '70000' })).toThrow(/not a TCP port/);
  });
});
