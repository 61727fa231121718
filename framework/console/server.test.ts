import { createServer, get, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { KafkaRecord } from '../event/record.ts';
import type { ConsoleActions } from './actions.ts';
import type { InvocationSummary } from './api-types.ts';
import type { ConsoleState } from './console-state.ts';
import { InvocationHistory } from './history.ts';
import { consoleServer } from './server.ts';

const record = (offset: number): KafkaRecord => ({
  topic: 't', partition: 0, offset, timestamp: 0, timestampType: 'CREATE_TIME', key: null, value: Buffer.from('v'), headers: [],
});

let server: Server | undefined;
let stream: IncomingMessage | undefined;
afterEach(async () => {
  stream?.destroy();
  await new Promise<void>((done) => (server ? server.close(() => done()) : done()));
});

/** The console's routes on a loopback server, and a reader of its live stream's `invocations` messages. */
async function live(history: InvocationHistory): Promise<{ next(): Promise<InvocationSummary[]> }> {
  const state = { overview: () => ({ now: Date.now() }) } as unknown as ConsoleState;
  const actions = { refreshOffsets: async () => {} } as unknown as ConsoleActions;
  const routes = consoleServer({ title: 't', state, history, actions, readOnly: true });
  server = createServer((req, res) => void routes.handle(req, res));
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  stream = await new Promise<IncomingMessage>((done) => get({ host: '127.0.0.1', port, path: '/api/live' }, done));
  const messages: InvocationSummary[][] = [];
  const waiting: Array<(m: InvocationSummary[]) => void> = [];
  let text = '';
  stream.setEncoding('utf8').on('data', (chunk: string) => {
    text += chunk;
    for (let end = text.indexOf('\n\n'); end >= 0; end = text.indexOf('\n\n')) {
      const frame = text.slice(0, end);
      text = text.slice(end + 2);
      if (!frame.includes('event: invocations')) continue;
      const m = JSON.parse(frame.slice(frame.indexOf('data: ') + 6)) as InvocationSummary[];
      const w = waiting.shift();
      if (w) w(m);
      else messages.push(m);
    }
  });
  // The stream is open (its first overview sent) before anything changes.
  await new Promise((done) => stream!.once('data', done));
  return { next: () => new Promise((done) => (messages.length ? done(messages.shift()!) : waiting.push(done))) };
}

describe('the console live stream', () => {
  it('sends the newest 200 invocations changed since its last message, in order of their latest change', async () => {
    const history = new InvocationHistory({ listedPerSecond: 1_000 }); // more listed than one message holds
    const page = await live(history);
    const started = Array.from({ length: 1_000 }, (_, i) => history.start({ functionName: 'f', records: [record(i)], source: { bootstrapServers: 'b' }, requestId: `r${i}` }));
    // The oldest one ends last: its change is the latest.
    history.end(started[0]!, { ok: true, durationMs: 1 });
    const first = await page.next();
    expect(first.map((s) => s.firstOffset)).toEqual([...Array.from({ length: 199 }, (_, i) => 801 + i), 0]);
    expect(first.at(-1)).toMatchObject({ outcome: 'ok', durationMs: 1 });
    // What changes next is sent next, and nothing from before the last message again.
    history.end(started[500]!, { ok: false, durationMs: 2 });
    expect((await page.next()).map((s) => [s.firstOffset, s.outcome])).toEqual([[500, 'failed']]);
  });
});
