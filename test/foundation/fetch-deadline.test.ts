import net from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchFileUrl } from '../../src/domain/import/file-url.js';
import { Errors, isApiError } from '../../src/errors.js';
import { OutboundPolicy } from '../../src/net/outbound-policy.js';

// A garbage collection on demand: the deadline must not hang on an object nothing else holds.
v8.setFlagsFromString('--expose-gc');
const collectGarbage = vm.runInNewContext('gc') as () => void;

/**
 * Issue 27 point 3: an import whose fileUrl accepts the connection and never sends headers stayed `running`
 * long past its fetch deadline in one run of six. The deadline counts from the first byte of the connection,
 * whatever the garbage collector does meanwhile.
 */
describe('an outbound fetch to a URL that never answers', () => {
  let silent: net.Server;
  let trickle: net.Server;
  const sockets = new Set<net.Socket>();
  const listen = async (server: net.Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as net.AddressInfo).port}/file.docx`;
  };
  let silentUrl: string;
  let trickleUrl: string;
  beforeAll(async () => {
    // accepts and reads the request, then says nothing
    silent = net.createServer((socket) => sockets.add(socket));
    // sends headers, then one byte of body every 100 ms, for ever
    trickle = net.createServer((socket) => {
      sockets.add(socket);
      socket.once('data', () => {
        socket.write('HTTP/1.1 200 OK\r\ncontent-length: 100000\r\n\r\n');
        const timer = setInterval(() => socket.write('x'), 100);
        socket.on('close', () => clearInterval(timer));
        socket.on('error', () => clearInterval(timer));
      });
    });
    silentUrl = await listen(silent);
    trickleUrl = await listen(trickle);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    await Promise.all([silent, trickle].map((server) => new Promise((resolve) => server.close(resolve))));
  });

  const policy = new OutboundPolicy({ allowPrivateNetworks: true });
  const fetchWithin = async (url: string, timeoutMs: number) => {
    const started = Date.now();
    const collector = setInterval(collectGarbage, 20);
    try {
      await fetchFileUrl(url, { outbound: policy, limitBytes: 1_000_000, timeoutMs, signal: new AbortController().signal, onProgress: () => {} });
      throw new Error('the fetch succeeded');
    } catch (error) {
      return { error, elapsed: Date.now() - started };
    } finally {
      clearInterval(collector);
    }
  };

  for (const [what, url] of [
    ['sends no headers', () => silentUrl],
    ['trickles its body', () => trickleUrl],
  ] as const) {
    it(`fails with the fetch timeout code within its deadline when the server ${what}`, async () => {
      const results = await Promise.all([1, 2, 3].map(() => fetchWithin(url(), 400)));
      for (const { error, elapsed } of results) {
        expect(isApiError(error) ? error.spec.code : error).toBe(Errors.importUrlTimeout.code);
        expect(elapsed).toBeLessThan(400 + 1500);
      }
    }, 20_000);
  }
});
