/**
 * A loopback TCP proxy in front of a real broker that reads the Kafka protocol's frames, so a test
 * can fail one kind of request for one member: while `failHeartbeatsOf` names a member id, its
 * Heartbeat requests never reach the broker and are answered at once with COORDINATOR_NOT_AVAILABLE
 * (a fast, non-rebalance error, as from a coordinator that is unreachable). Everything else passes
 * through untouched. The broker must advertise the proxy's port (ensureBroker's `advertisedPort`),
 * so every connection of every client goes through it.
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

const HEARTBEAT = 12;
const COORDINATOR_NOT_AVAILABLE = 15;

export interface KafkaProxy {
  port: number;
  /** Heartbeats of these member ids are answered with an error, and not forwarded. */
  failHeartbeatsOf: Set<string>;
  /** Heartbeats answered so, by member id. */
  failed: Map<string, number>;
  close(): Promise<void>;
}

export async function startKafkaProxy(port: number, brokerPort: number): Promise<KafkaProxy> {
  const sockets = new Set<Socket>();
  const proxy: KafkaProxy = { port, failHeartbeatsOf: new Set(), failed: new Map(), close: () => close(server, sockets) };
  const server = createServer((client) => {
    const broker = connect(brokerPort, '127.0.0.1');
    for (const s of [client, broker]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => undefined);
    }
    client.on('close', () => broker.destroy());
    broker.on('close', () => client.destroy());
    // Replies the proxy makes go between the broker's frames, never inside one.
    const toClient = frames((frame) => client.write(frame));
    broker.on('data', toClient.push);
    const toBroker = frames((frame) => {
      const answer = heartbeatAnswer(frame, proxy);
      if (answer) toClient.inject(answer);
      else broker.write(frame);
    });
    client.on('data', toBroker.push);
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, '127.0.0.1', resolve));
  return proxy;
}

/** Cuts a byte stream into whole frames (a 4-byte size, then that many bytes); `inject` queues a frame of our own after the current one. */
function frames(emit: (frame: Buffer) => void) {
  let pending = Buffer.alloc(0);
  return {
    push: (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 4 && pending.length >= 4 + pending.readInt32BE(0)) {
        const size = 4 + pending.readInt32BE(0);
        emit(pending.subarray(0, size));
        pending = pending.subarray(size);
      }
    },
    inject: (frame: Buffer) => emit(frame),
  };
}

/**
 * The error answer to a Heartbeat of a member the proxy fails, or undefined. Request: size, api key
 * (int16), version (int16), correlation id (int32), client id (string), then the body: group id
 * (string), generation (int32), member id (string). kafkajs sends versions 0-3 (not flexible).
 */
function heartbeatAnswer(frame: Buffer, proxy: KafkaProxy): Buffer | undefined {
  if (frame.readInt16BE(4) !== HEARTBEAT) return undefined;
  const version = frame.readInt16BE(6);
  const correlationId = frame.readInt32BE(8);
  let at = 12;
  const string = () => {
    const length = frame.readInt16BE(at);
    at += 2;
    const value = length < 0 ? '' : frame.toString('utf8', at, at + length);
    at += Math.max(0, length);
    return value;
  };
  string(); // client id
  string(); // group id
  at += 4; // generation
  const memberId = string();
  if (version > 3 || !proxy.failHeartbeatsOf.has(memberId)) return undefined;
  proxy.failed.set(memberId, (proxy.failed.get(memberId) ?? 0) + 1);
  const body = version === 0 ? Buffer.alloc(2) : Buffer.alloc(6);
  body.writeInt16BE(COORDINATOR_NOT_AVAILABLE, version === 0 ? 0 : 4);
  const answer = Buffer.alloc(8 + body.length);
  answer.writeInt32BE(4 + body.length, 0);
  answer.writeInt32BE(correlationId, 4);
  body.copy(answer, 8);
  return answer;
}

async function close(server: Server, sockets: Set<Socket>): Promise<void> {
  for (const s of sockets) s.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}
