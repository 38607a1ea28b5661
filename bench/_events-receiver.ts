/**
 * The integrator's `POST /events` for bench/events.ts, in a process of its own as a real integrator is: it
 * answers 200 at once and reports each receipt (event id, time on the shared clock) to its parent over IPC,
 * in batches.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const clock = () => performance.timeOrigin + performance.now();
let receipts: Array<[string, number]> = [];
const server = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    receipts.push([String(req.headers['x-svc-event-id']), clock()]);
    res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
});
server.listen(0, '127.0.0.1', () => process.send!({ port: (server.address() as AddressInfo).port }));
setInterval(() => {
  if (receipts.length === 0) return;
  process.send!({ receipts });
  receipts = [];
}, 10);
process.on('disconnect', () => process.exit(0));
