/**
 * Pure: an optional SASL_SSL listener with OAUTHBEARER for the local broker, for the MSK IAM
 * tests. It listens on port + 3 with the TLS key and certificate of one PEM file (unencrypted
 * PKCS#8 key, then the certificate) and validates tokens with Kafka's own default, the
 * unsecured validator (OAuthBearerUnsecuredValidatorCallbackHandler): an unsecured JWT
 * (alg none) with a `sub`, `iat` and `exp` is accepted, anything else refused. Test use only.
 */
export interface OAuthBearerListener {
  port: number;
  /** PEM file holding the listener's private key and certificate. */
  keystorePemFile: string;
}

export function oauthBearerListener(port: number, controllerPort: number, keystorePemFile: string): OAuthBearerListener {
  const listenerPort = port + 3;
  if (listenerPort === controllerPort || listenerPort > 65535) {
    throw new Error(`The OAUTHBEARER listener uses port + 3 (${listenerPort}), which must be free and differ from controllerPort ${controllerPort}. Pick another port.`);
  }
  return { port: listenerPort, keystorePemFile };
}

/** server.properties entries with the listener added (as sasl.ts's withSaslListener). */
export function withOAuthBearerListener<V>(props: Array<[string, V | string]>, l: OAuthBearerListener, pathOf: (p: string) => string): Array<[string, V | string]> {
  const extend: Record<string, string> = {
    listeners: `SASL_SSL://127.0.0.1:${l.port}`,
    'advertised.listeners': `SASL_SSL://127.0.0.1:${l.port}`,
    'listener.security.protocol.map': 'SASL_SSL:SASL_SSL',
  };
  return [
    ...props.map(([key, value]): [string, V | string] => (extend[key] ? [key, `${String(value)},${extend[key]}`] : [key, value])),
    ['listener.name.sasl_ssl.sasl.enabled.mechanisms', 'OAUTHBEARER'],
    // The broker's own login (it never authenticates to itself on this listener) needs a subject.
    ['listener.name.sasl_ssl.oauthbearer.sasl.jaas.config', 'org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required unsecuredLoginStringClaim_sub="broker";'],
    ['listener.name.sasl_ssl.ssl.keystore.type', 'PEM'],
    ['listener.name.sasl_ssl.ssl.keystore.location', pathOf(l.keystorePemFile)],
  ];
}
