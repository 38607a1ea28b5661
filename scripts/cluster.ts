/**
 * `npm run cluster [-- processes]`: tries out several service processes on PostgreSQL + Redis on this machine
 * (docs/DEPLOY.md). Starts `processes` (default 3) `node dist/src/main.js` on ports PORT+1…, the first alone
 * (it applies the migrations), then the others, and a round-robin proxy on PORT (default 3000) standing in for
 * the load balancer: no sticky sessions, WebSockets included, each request and connection to the next process.
 * DATABASE_URL (default postgres://postgres@127.0.0.1:5432/svc) and REDIS_URL (default
 * redis://127.0.0.1:6379) name the shared services; every other variable of README "Runtime contract" is
 * passed on. Ctrl-C stops everything.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import net from 'node:net';

const count = Number(process.argv[2] ?? 3);
if (!Number.isInteger(count) || count < 1 || count > 32) {
  console.error('usage: npm run cluster [-- processes]   (1-32, default 3)');
  process.exit(2);
}
const port = Number(process.env.PORT ?? 3000);
const env = {
  ...process.env,
  DATABASE_URL: process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/svc',
  REDIS_URL: process.env.REDIS_URL || 'redis://127.0.0.1:6379',
  HOST: '127.0.0.1',
};
const children: ChildProcess[] = [];
const backends: number[] = [];

async function healthy(backendPort: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`process on port ${backendPort} exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${backendPort}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

async function start(index: number): Promise<void> {
  const backendPort = port + 1 + index;
  const child = spawn(process.execPath, ['dist/src/main.js'], { env: { ...env, PORT: String(backendPort) }, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  await healthy(backendPort, child);
  backends.push(backendPort);
  console.log(`cluster: process ${index + 1} ready on http://127.0.0.1:${backendPort}`);
}

let next = 0;
const pick = () => backends[next++ % backends.length]!;

function stop(code: number): void {
  for (const child of children) child.kill('SIGTERM');
  process.exit(code);
}
process.once('SIGINT', () => stop(0));
process.once('SIGTERM', () => stop(0));

try {
  // the first process applies the migrations (under the database's migration lock); the others find them applied
  await start(0);
  await Promise.all(Array.from({ length: count - 1 }, (_, i) => start(i + 1)));
} catch (error) {
  console.error(`cluster: ${(error as Error).message}`);
  stop(1);
}

const proxy = http.createServer((request, response) => {
  const upstream = http.request({ host: '127.0.0.1', port: pick(), method: request.method, path: request.url, headers: request.headers }, (answer) => {
    response.writeHead(answer.statusCode ?? 502, answer.headers);
    answer.pipe(response);
  });
  upstream.on('error', () => {
    if (!response.headersSent) response.writeHead(502);
    response.end();
  });
  request.pipe(upstream);
});
// WebSockets (collaboration): the upgrade request and then the raw bytes both ways, to one process
proxy.on('upgrade', (request, socket, head) => {
  const upstream = net.connect(pick(), '127.0.0.1', () => {
    const headers = Object.entries(request.headers).flatMap(([name, value]) => (Array.isArray(value) ? value.map((v) => `${name}: ${v}`) : [`${name}: ${value}`]));
    upstream.write(`${request.method} ${request.url} HTTP/1.1\r\n${headers.join('\r\n')}\r\n\r\n`);
    if (head.length > 0) upstream.write(head);
    upstream.pipe(socket).pipe(upstream);
  });
  upstream.on('error', () => socket.destroy());
  socket.on('error', () => upstream.destroy());
});
proxy.listen(port, '127.0.0.1', () => console.log(`cluster: ${count} processes behind http://127.0.0.1:${port} (round robin, no sticky sessions); Ctrl-C stops`));
