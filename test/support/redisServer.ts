import { spawn, type ChildProcess } from 'node:child_process';
import * as net from 'node:net';

/**
 * A throwaway redis-server for a test: a free loopback port, no persistence, killed by stop(). Debian's
 * redis-server is installed by `npm run setup:test` (CI always runs it).
 */
export interface TestRedis {
  url: string;
  port: number;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const port = (server.address() as net.AddressInfo).port;
      server.close(() => resolve(port));
    });
  });
}

function ping(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
  });
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess;
  const failed = new Promise<never>((_, reject) => {
    child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'ignore', 'pipe'] });
    child.once('error', (error: NodeJS.ErrnoException) => {
      reject(
        error.code === 'ENOENT'
          ? new Error('redis-server is not installed; the queue-mode tests need it: run `npm run setup:test` (it installs Debian\'s redis-server)')
          : error,
      );
    });
    child.once('exit', (code) => reject(new Error(`redis-server exited with code ${code} before it answered`)));
  });
  failed.catch(() => {});
  const deadline = Date.now() + 10_000;
  for (;;) {
    await Promise.race([failed, new Promise((r) => setTimeout(r, 50))]);
    if (await ping(port)) break;
    if (Date.now() > deadline) throw new Error(`redis-server did not answer on port ${port} within 10 s`);
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    port,
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.removeAllListeners('exit');
        child.once('exit', () => resolve());
        child.kill('SIGKILL');
      }),
  };
}
