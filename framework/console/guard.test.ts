import { describe, expect, it } from 'vitest';
import { refusedRead, refusedWrite } from './guard.ts';

const s = { token: 'secret-token', hosts: ['poller.internal'] };
const write = { host: '127.0.0.1:9464', origin: 'http://127.0.0.1:9464', 'sec-fetch-site': 'same-origin', 'content-type': 'application/json', 'x-sluice-token': 'secret-token' };

describe('console guard', () => {
  it('serves requests naming this server by IP address, localhost or a listed name', () => {
    for (const host of ['127.0.0.1:9464', 'localhost:9464', '[::1]:9464', '10.0.0.5', 'poller.internal:9464', 'LOCALHOST']) expect(refusedRead({ host }, s)).toBeUndefined();
  });

  it('serves the API only to this site\'s pages (an <img> of /api/failures from another site reads nothing)', () => {
    expect(refusedRead({ host: '127.0.0.1:9464', 'sec-fetch-site': 'cross-site' }, s, true)).toMatch(/cross-site request is not served/);
    expect(refusedRead({ host: '127.0.0.1:9464', 'sec-fetch-site': 'same-site' }, s, true)).toMatch(/same-site/);
    expect(refusedRead({ host: '127.0.0.1:9464', 'sec-fetch-site': 'same-origin' }, s, true)).toBeUndefined();
    expect(refusedRead({ host: '127.0.0.1:9464' }, s, true)).toBeUndefined(); // curl, scripts
    expect(refusedRead({ host: '127.0.0.1:9464', 'sec-fetch-site': 'cross-site' }, s)).toBeUndefined(); // the page itself, a link from elsewhere
  });

  it('refuses another name (DNS rebinding) and a request without Host', () => {
    expect(refusedRead({ host: 'attacker.example:9464' }, s)).toMatch(/Host "attacker.example" is not this console's/);
    expect(refusedRead({}, s)).toMatch(/without a Host/);
  });

  it('lets a same-origin JSON POST with the token through', () => {
    expect(refusedWrite(write, s)).toBeUndefined();
    expect(refusedWrite({ ...write, origin: undefined, 'sec-fetch-site': undefined }, s)).toBeUndefined(); // curl
  });

  it('refuses a cross-site POST, whatever it carries', () => {
    expect(refusedWrite({ ...write, origin: 'http://evil.example' }, s)).toMatch(/Origin http:\/\/evil.example/);
    expect(refusedWrite({ ...write, origin: 'http://127.0.0.1:9999' }, s)).toMatch(/Origin/);
    expect(refusedWrite({ ...write, 'sec-fetch-site': 'cross-site' }, s)).toMatch(/cross-site request/);
    expect(refusedWrite({ ...write, 'sec-fetch-site': 'same-site' }, s)).toMatch(/same-site request/);
    expect(refusedWrite({ ...write, origin: 'null' }, s)).toMatch(/Origin null/);
  });

  it('refuses a form post (not JSON) and a missing or wrong token', () => {
    expect(refusedWrite({ ...write, 'content-type': 'application/x-www-form-urlencoded' }, s)).toMatch(/send JSON/);
    expect(refusedWrite({ ...write, 'content-type': 'text/plain' }, s)).toMatch(/send JSON/);
    expect(refusedWrite({ ...write, 'x-sluice-token': undefined }, s)).toMatch(/x-sluice-token/);
    expect(refusedWrite({ ...write, 'x-sluice-token': 'secret-tokem' }, s)).toMatch(/x-sluice-token/);
    expect(refusedWrite({ ...write, 'x-sluice-token': ['secret-token', 'x'] }, s)).toMatch(/x-sluice-token/);
  });
});
