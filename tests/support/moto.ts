/**
 * A real AWS-API-compatible server for destination tests: moto (PyPI, from the suite's .sluice/venv),
 * started on loopback by the test that needs it and stopped (or restarted) by it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { python } from './python.ts';

export interface Moto {
  endpoint: string;
  stop(): Promise<void>;
  start(): Promise<void>;
}

export function moto(port: number): Moto {
  let child: ChildProcess | undefined;
  const endpoint = `http://127.0.0.1:${port}`;
  return {
    endpoint,
    async start() {
      if (await listening(port)) throw new Error(`port ${port} is already taken (a moto left running by an interrupted run?): stop whatever listens there.`);
      child = spawn(python(), ['-m', 'moto.server', '-H', '127.0.0.1', '-p', String(port)], { stdio: ['ignore', 'ignore', 'pipe'] });
      if (process.env.MOTO_DEBUG) child.stderr!.pipe(process.stderr);
      let stderr = '';
      child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      const deadline = Date.now() + 30_000;
      while (!(await listening(port))) {
        if (child.exitCode !== null) throw new Error(`moto did not start (${python()} -m moto.server exited ${child.exitCode}); infra/python/requirements.txt pins it.\n${stderr}`);
        if (Date.now() > deadline) throw new Error(`moto did not listen on ${port} within 30 s:\n${stderr}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    },
    async stop() {
      const c = child;
      child = undefined;
      if (!c || c.exitCode !== null) return;
      const exited = new Promise((r) => c.once('exit', r));
      c.kill('SIGTERM');
      await exited;
    },
  };
}

function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
