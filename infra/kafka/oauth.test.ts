import { describe, expect, it } from 'vitest';
import { renderServerProperties } from './config.ts';
import { oauthBearerListener } from './oauth.ts';

describe('the OAUTHBEARER listener', () => {
  it('adds SASL_SSL on port + 3 with OAUTHBEARER only and a PEM keystore, beside PLAINTEXT', () => {
    const text = renderServerProperties({ port: 27110, controllerPort: 27111, dataDir: '/d', oauthBearer: oauthBearerListener(27110, 27111, '/certs/keystore.pem') });
    expect(text).toContain('listeners=PLAINTEXT://127.0.0.1:27110,CONTROLLER://127.0.0.1:27111,SASL_SSL://127.0.0.1:27113\n');
    expect(text).toContain('advertised.listeners=PLAINTEXT://127.0.0.1:27110,SASL_SSL://127.0.0.1:27113\n');
    expect(text).toContain('listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_SSL:SASL_SSL\n');
    expect(text).toContain('listener.name.sasl_ssl.sasl.enabled.mechanisms=OAUTHBEARER\n');
    expect(text).toContain('listener.name.sasl_ssl.ssl.keystore.type=PEM\nlistener.name.sasl_ssl.ssl.keystore.location=/certs/keystore.pem\n');
    expect(text).not.toContain('server.callback.handler'); // Kafka's own unsecured validator
  });

  it('refuses a port whose + 3 is the controller\'s', () => {
    expect(() => oauthBearerListener(27110, 27113, '/k.pem')).toThrow('port + 3 (27113)');
  });
});
