import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { readInFlight } from './poller-metrics.ts';

let server: Server | undefined;
afterEach(() => new Promise<void>((done) => (server ? server.close(() => done()) : done())));

async function serving(status: number, body: string): Promise<string> {
  server = createServer((_req, res) => res.writeHead(status).end(body));
  await new Promise<void>((done) => server!.listen(0, '127.0.0.1', done));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/metrics`;
}

it("reads a poller's in-flight invocations per function, topic and partition", async () => {
  const url = await serving(200, 'sluice_partition_chunks_in_flight{function="orders",topic="orders",partition="2"} 3\nother_metric 1\n');
  expect(await readInFlight(url)).toEqual(new Map([['orders|orders|2', 3]]));
});

it("a Sluice poller's failed read of its metrics is quoted, not called another program", async () => {
  const url = await serving(500, 'metrics failed: the registry threw\nmore');
  expect(await readInFlight(url)).toEqual({ unreachable: `${url} answered 500: metrics failed: the registry threw` });
});

it('something else on the port (a poller moved off it when it found the port taken) is said so, with how to point at the poller', async () => {
  const url = await serving(404, 'not here');
  expect(await readInFlight(url)).toEqual({ unreachable: `${url} answered 404, not a Sluice poller (one that found the port taken serves on another, named in its start banner: give it as SLUICE_HTTP_PORT)` });
});
