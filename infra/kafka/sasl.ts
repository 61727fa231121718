/**
 * Pure: an optional extra SASL_PLAINTEXT listener for the local broker, for tests of
 * `accessConfigurations`. It listens on port + 2 beside the usual PLAINTEXT listener, accepts
 * SCRAM-SHA-256, SCRAM-SHA-512 and PLAIN, and knows the users given: their SCRAM credentials
 * are written into the KRaft metadata when the storage is formatted (`kafka-storage format
 * --add-scram`), their PLAIN passwords into server.properties. Test credentials only.
 */
export interface SaslUser {
  name: string;
  password: string;
}

export interface SaslListener {
  port: number;
  users: SaslUser[];
  /**
   * Enforce ACLs (KRaft's StandardAuthorizer): the SASL users may do only what ACLs allow, while
   * the PLAINTEXT and controller listeners' principal (User:ANONYMOUS) is a super user, so tests
   * administer the broker, and grant or revoke ACLs, through the plain listener.
   */
  authorizer?: boolean;
}

export const SASL_MECHANISMS = ['SCRAM-SHA-256', 'SCRAM-SHA-512', 'PLAIN'] as const;
const SAFE = /^[A-Za-z0-9._-]+$/;

/** The listener for a broker on `port` (the controller on `controllerPort`). */
export function saslListener(port: number, controllerPort: number, users: SaslUser[], authorizer = false): SaslListener {
  const saslPort = port + 2;
  if (saslPort === controllerPort || saslPort > 65535) {
    throw new Error(`The SASL listener uses port + 2 (${saslPort}), which must be free and differ from controllerPort ${controllerPort}. Pick another port.`);
  }
  if (users.length === 0) throw new Error('sasl.users must list at least one user, e.g. [{ name: "alice", password: "alice-secret" }].');
  for (const u of users) {
    // Both end up inside --add-scram's [name=…,password=…] and a JAAS line: keep them plain.
    if (!SAFE.test(u.name) || !SAFE.test(u.password)) {
      throw new Error(`SASL user names and passwords may hold only letters, digits, ".", "_" and "-" (user "${SAFE.test(u.name) ? u.name : '?'}").`);
    }
  }
  return { port: saslPort, users, ...(authorizer ? { authorizer } : {}) };
}

/**
 * server.properties entries with the listener added: the three listener entries of `props`
 * are extended, the SASL settings appended. Entries are `[key, value]` as config.ts writes them.
 */
export function withSaslListener<V>(props: Array<[string, V | string]>, sasl: SaslListener): Array<[string, V | string]> {
  const extend: Record<string, string> = {
    listeners: `SASL_PLAINTEXT://127.0.0.1:${sasl.port}`,
    'advertised.listeners': `SASL_PLAINTEXT://127.0.0.1:${sasl.port}`,
    'listener.security.protocol.map': 'SASL_PLAINTEXT:SASL_PLAINTEXT',
  };
  const scram = 'org.apache.kafka.common.security.scram.ScramLoginModule required;';
  const plain = `org.apache.kafka.common.security.plain.PlainLoginModule required ${sasl.users.map((u) => `user_${u.name}="${u.password}"`).join(' ')};`;
  return [
    ...props.map(([key, value]): [string, V | string] => (extend[key] ? [key, `${String(value)},${extend[key]}`] : [key, value])),
    ['sasl.enabled.mechanisms', SASL_MECHANISMS.join(',')],
    ['listener.name.sasl_plaintext.scram-sha-256.sasl.jaas.config', scram],
    ['listener.name.sasl_plaintext.scram-sha-512.sasl.jaas.config', scram],
    ['listener.name.sasl_plaintext.plain.sasl.jaas.config', plain],
    ...(sasl.authorizer
      ? [['authorizer.class.name', 'org.apache.kafka.metadata.authorizer.StandardAuthorizer'], ['super.users', 'User:ANONYMOUS']] as Array<[string, string]>
      : []),
  ];
}

/** `kafka-storage format` arguments that create every user's SCRAM credentials. */
export function scramFormatArgs(sasl: SaslListener): string[] {
  return sasl.users.flatMap((u) =>
    ['SCRAM-SHA-256', 'SCRAM-SHA-512'].flatMap((m) => ['--add-scram', `${m}=[name=${u.name},password=${u.password}]`]),
  );
}
