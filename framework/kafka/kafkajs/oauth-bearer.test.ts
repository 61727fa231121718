import type { AuthenticationProviderArgs, SaslAuthenticateArgs } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { isAuthenticationFailure } from './client.ts';
import { challengeStatus, initialResponse, oauthBearerMechanism } from './oauth-bearer.ts';

/** A broker's side of the exchange: records what the client sent, answers with `answers` in turn. */
function exchange(answers: Buffer[]) {
  const sent: string[] = [];
  const saslAuthenticate = async <T>({ request, response }: SaslAuthenticateArgs<T>): Promise<T | void> => {
    const bytes = await request.encode();
    sent.push(bytes.subarray(4, 4 + bytes.readInt32BE(0)).toString('utf8'));
    const answer = answers.shift() ?? Buffer.alloc(0);
    if (!response) return;
    const framed = Buffer.concat([Buffer.alloc(4), answer]);
    framed.writeInt32BE(answer.length, 0);
    return response.parse(await response.decode(framed));
  };
  const args = { host: 'b-1', port: 9098, logger: undefined as never, saslAuthenticate } as AuthenticationProviderArgs;
  return { sent, authenticate: () => oauthBearerMechanism(async () => 'tok.en').authenticationProvider(args).authenticate() };
}

describe('SASL/OAUTHBEARER', () => {
  it('sends the GS2 header and the bearer token, as RFC 7628 frames it', async () => {
    expect(initialResponse('abc')).toBe('n,,\u0001auth=Bearer abc\u0001\u0001');
    const ok = exchange([Buffer.alloc(0)]);
    await ok.authenticate();
    expect(ok.sent).toEqual([initialResponse('tok.en')]);
  });

  it('ends a refused exchange with 0x01 and fails as an authentication failure naming the status', async () => {
    const refused = exchange([Buffer.from('{"status":"invalid_token"}')]);
    const e = await refused.authenticate().then(() => undefined, (x: unknown) => x as Error);
    expect(refused.sent).toEqual([initialResponse('tok.en'), '\u0001']);
    expect(isAuthenticationFailure(e)).toBe(true);
    expect(e?.message).toBe('SASL OAUTHBEARER authentication failed at b-1:9098: the broker refused the token (status invalid_token)');
    expect(challengeStatus('not json')).toBe('not json');
  });
});
