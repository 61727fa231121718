import { describe, expect, it } from 'vitest';
import { configErrorMessage } from '../config/testing.ts';
import { httpSettings, urlHost } from './http-settings.ts';

describe('httpSettings', () => {
  it('defaults to 9464 on loopback, locally (movable when taken) and in the container (unauthenticated: not on the task\'s network)', () => {
    expect(httpSettings('local', {})).toEqual({ host: '127.0.0.1', port: 9464, explicit: false });
    expect(httpSettings('container', {})).toEqual({ host: '127.0.0.1', port: 9464, explicit: true });
  });

  it('listens where SLUICE_HTTP_HOST says, and refuses one that is not an IP address', () => {
    expect(httpSettings('container', { SLUICE_HTTP_HOST: '0.0.0.0' })).toEqual({ host: '0.0.0.0', port: 9464, explicit: true });
    expect(httpSettings('local', { SLUICE_HTTP_HOST: ' ::1 ', SLUICE_HTTP_PORT: '8081' })).toEqual({ host: '::1', port: 8081, explicit: true });
    expect(configErrorMessage(() => httpSettings('container', { SLUICE_HTTP_HOST: 'every' }))).toBe(
      'SLUICE_HTTP_HOST=every: not an IP address; set it to an address of this machine (0.0.0.0 or :: for every interface), or unset it for 127.0.0.1, loopback only.',
    );
  });

  it('reaches a server on every interface through loopback, and brackets IPv6 in a URL', () => {
    expect(['127.0.0.1', '0.0.0.0', '::', '::1', '10.0.0.5'].map(urlHost)).toEqual(['127.0.0.1', '127.0.0.1', '[::1]', '[::1]', '10.0.0.5']);
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
