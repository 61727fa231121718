import { describe, expect, it } from 'vitest';
import { renderServerProperties } from './config.ts';
import { saslListener, scramFormatArgs } from './sasl.ts';

const alice = { name: 'alice', password: 'alice-secret' };

describe('the SASL listener of the local broker', () => {
  it('is off unless asked for', () => {
    const text = renderServerProperties({ port: 29092, controllerPort: 29093, dataDir: '/d' });
    expect(text).not.toContain('SASL');
    expect(text).toContain('listeners=PLAINTEXT://127.0.0.1:29092,CONTROLLER://127.0.0.1:29093\n');
  });

  it('adds a SASL_PLAINTEXT listener on port + 2 with SCRAM and PLAIN, keeping the plain listener', () => {
    const sasl = saslListener(39590, 39591, [alice, { name: 'bob', password: 'b0b' }]);
    const text = renderServerProperties({ port: 39590, controllerPort: 39591, dataDir: '/d', sasl });
    expect(text).toContain('\nlisteners=PLAINTEXT://127.0.0.1:39590,CONTROLLER://127.0.0.1:39591,SASL_PLAINTEXT://127.0.0.1:39592\n');
    expect(text).toContain('\nadvertised.listeners=PLAINTEXT://127.0.0.1:39590,SASL_PLAINTEXT://127.0.0.1:39592\n');
    expect(text).toContain('\nlistener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT\n');
    expect(text).toContain('\ninter.broker.listener.name=PLAINTEXT\n');
    expect(text).toContain('\nsasl.enabled.mechanisms=SCRAM-SHA-256,SCRAM-SHA-512,PLAIN\n');
    expect(text).toContain('\nlistener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required;\n');
    expect(text).toContain(
      '\nlistener.name.sasl_plaintext.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_alice="alice-secret" user_bob="b0b";\n',
    );
  });

  it('enforces ACLs only when asked, with the plain listener\'s principal as the super user', () => {
    const without = renderServerProperties({ port: 39590, controllerPort: 39591, dataDir: '/d', sasl: saslListener(39590, 39591, [alice]) });
    expect(without).not.toContain('authorizer');
    const text = renderServerProperties({ port: 39590, controllerPort: 39591, dataDir: '/d', sasl: saslListener(39590, 39591, [alice], true) });
    expect(text).toContain('\nauthorizer.class.name=org.apache.kafka.metadata.authorizer.StandardAuthorizer\n');
    expect(text).toContain('\nsuper.users=User:ANONYMOUS\n');
  });

  it('creates the SCRAM credentials when the storage is formatted', () => {
    expect(scramFormatArgs(saslListener(39590, 39591, [alice]))).toEqual([
      '--add-scram', 'SCRAM-SHA-256=[name=alice,password=alice-secret]',
      '--add-scram', 'SCRAM-SHA-512=[name=alice,password=alice-secret]',
    ]);
  });

  it('refuses what would break the format syntax or collide with the controller', () => {
    expect(() => saslListener(39590, 39592, [alice])).toThrow(/port \+ 2 \(39592\).*controllerPort 39592/);
    expect(() => saslListener(39590, 39591, [])).toThrow(/at least one user/);
    expect(() => saslListener(39590, 39591, [{ name: 'alice', password: 'a,b]' }])).toThrow(/only letters, digits/);
  });
});
