/**
 * SASL/OAUTHBEARER (RFC 7628) as a kafkajs custom mechanism, replacing kafkajs 2.2.4's own,
 * which ignores the server's answer: a broker that refuses a token answers the client's first
 * message with an error challenge (`{"status":"invalid_token"}`) and waits for the client to end
 * the exchange with 0x01; kafkajs reports "authentication successful" instead, sends its next
 * request into the unfinished exchange, and the broker drops the connection, which reaches the
 * caller as "No brokers in the broker pool". Here a challenge ends the exchange as the RFC says
 * and becomes a KafkaJSSASLAuthenticationError naming the status (never the token).
 */
import kafkajs, { type Mechanism } from 'kafkajs';

// kafkajs's typings declare this constructor without the message its JavaScript takes.
const KafkaJSSASLAuthenticationError = kafkajs.KafkaJSSASLAuthenticationError as unknown as new (message: string) => Error;
const SOH = '\u0001';

/** kafkajs's SaslAuthenticate takes and returns the auth bytes with their int32 length in front. */
function framed(payload: string): Buffer {
  const bytes = Buffer.from(payload, 'utf8');
  const out = Buffer.alloc(4 + bytes.length);
  out.writeInt32BE(bytes.length, 0);
  bytes.copy(out, 4);
  return out;
}
const unframed = (raw: Buffer): Buffer => (raw.length < 4 ? Buffer.alloc(0) : raw.subarray(4, 4 + Math.max(0, raw.readInt32BE(0))));

/** The client's first message: GS2 header with no authzid, then `auth=Bearer <token>`. */
export function initialResponse(token: string): string {
  return `n,,${SOH}auth=Bearer ${token}${SOH}${SOH}`;
}

/** The error challenge's status (RFC 7628 §3.2.2), for the message: `invalid_token`, or the raw text. */
export function challengeStatus(challenge: string): string {
  try {
    const parsed = JSON.parse(challenge) as { status?: unknown };
    if (typeof parsed.status === 'string') return parsed.status;
  } catch {
    // not JSON: say what came
  }
  return challenge.slice(0, 200);
}

export function oauthBearerMechanism(token: () => Promise<string>): Mechanism {
  return {
    mechanism: 'oauthbearer',
    authenticationProvider: ({ host, port, saslAuthenticate }) => ({
      authenticate: async () => {
        const value = await token();
        const fail = (why: string) => new KafkaJSSASLAuthenticationError(`SASL OAUTHBEARER authentication failed at ${host}:${port}: ${why}`);
        let challenge: Buffer | void;
        try {
          challenge = await saslAuthenticate<Buffer>({
            request: { encode: () => framed(initialResponse(value)) },
            response: { decode: unframed, parse: (data) => data },
          });
        } catch (e) {
          throw fail(e instanceof Error ? e.message : String(e));
        }
        if (!challenge || challenge.length === 0) return;
        const status = challengeStatus(challenge.toString('utf8'));
        // End the exchange as RFC 7628 asks; the broker then answers with its failure.
        await saslAuthenticate({ request: { encode: () => framed(SOH) } }).catch(() => undefined);
        throw fail(`the broker refused the token (status ${status})`);
      },
    }),
  };
}
