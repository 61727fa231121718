/**
 * A Confluent-compatible schema registry on loopback that answers what the test tells it to, for
 * the hostile tier: a schema, a body of any bytes, a huge body, or an answer trickled a byte at a
 * time. Paths not set answer the API's own 404 (error 40403). Counts the requests per path.
 */
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer =
  /** 200 with this object as JSON. */
  | { json: unknown }
  /** 200 with these bytes as they are (malformed JSON, say). */
  | { raw: string }
  /** 200 with a JSON body of this many bytes, written in 64 KiB pieces. */
  | { hugeBytes: number }
  /** 200 with this object as JSON, one byte every `everyMs`. */
  | { trickle: unknown; everyMs: number };

export interface HostileRegistry {
  url: string;
  set(path: string, answer: Answer): void;
  requests(path?: string): number;
  close(): Promise<void>;
}

export async function startHostileRegistry(): Promise<HostileRegistry> {
  const answers = new Map<string, Answer>();
  const counts = new Map<string, number>();
  const timers = new Set<NodeJS.Timeout>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    counts.set(path, (counts.get(path) ?? 0) + 1);
    res.on('error', () => undefined); // the poller cuts off what it will not read
    answer(answers.get(path), res, timers);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    set: (path, a) => answers.set(path, a),
    requests: (path) => (path ? (counts.get(path) ?? 0) : [...counts.values()].reduce((a, b) => a + b, 0)),
    close: async () => {
      for (const t of timers) clearInterval(t);
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function answer(a: Answer | undefined, res: ServerResponse, timers: Set<NodeJS.Timeout>): void {
  const headers = { 'content-type': 'application/vnd.schemaregistry.v1+json' };
  if (!a) {
    res.writeHead(404, headers).end(JSON.stringify({ error_code: 40403, message: 'Schema not found' }));
  } else if ('json' in a) {
    res.writeHead(200, headers).end(JSON.stringify(a.json));
  } else if ('raw' in a) {
    res.writeHead(200, headers).end(a.raw);
  } else if ('hugeBytes' in a) {
    res.writeHead(200, headers);
    const piece = Buffer.alloc(64 * 1024, 0x20);
    let left = a.hugeBytes;
    const more = () => {
      while (left > 0 && !res.destroyed) {
        left -= piece.length;
        if (!res.write(piece)) return void res.once('drain', more);
      }
      res.end();
    };
    res.write('{"schema":"');
    more();
  } else {
    const body = Buffer.from(JSON.stringify(a.trickle));
    res.writeHead(200, { ...headers, 'content-length': body.length });
    let at = 0;
    const timer = setInterval(() => {
      if (res.destroyed || at >= body.length) {
        clearInterval(timer);
        timers.delete(timer);
        if (!res.destroyed) res.end();
        return;
      }
      res.write(body.subarray(at, ++at));
    }, a.everyMs);
    timers.add(timer);
    res.on('close', () => {
      clearInterval(timer);
      timers.delete(timer);
    });
  }
}
