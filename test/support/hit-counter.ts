import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A 1×1 red PNG: what the counting server answers every request with. */
export const TINY_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==',
  'base64',
);

/**
 * A listening socket that counts every connection made to it (and the requests on them): the outside address of
 * an image in a document. Each request is answered with the same bytes (an image, unless told otherwise).
 */
export interface HitCounter {
  /** `http://127.0.0.1:{port}` */
  origin: string;
  connections(): number;
  /** paths requested, in order */
  requests(): string[];
  close(): Promise<void>;
}

/** `answer`: what each request gets (default TINY_PNG as image/png). */
export async function startHitCounter(answer: { type: string; body: Buffer } = { type: 'image/png', body: TINY_PNG }): Promise<HitCounter> {
  let connections = 0;
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(request.url ?? '');
    response.writeHead(200, { 'content-type': answer.type, 'content-length': answer.body.length });
    response.end(answer.body);
  });
  server.on('connection', () => connections++);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    connections: () => connections,
    requests: () => [...requests],
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
