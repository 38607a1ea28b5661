import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Lets the requests under way finish when the server closes (docs/OPERATIONS.md): from `close()` on, Fastify
 * answers new requests 503 with `Connection: close` (a load balancer retries them elsewhere); this waits,
 * before the connections are cut, until every request that had started is answered or `drainMs` passed.
 */
export const requestDrain = fp(
  async (app: FastifyInstance, options: { drainMs: number }) => {
    let underWay = 0;
    let drained: (() => void) | undefined;
    app.addHook('onRequest', async (_request, reply) => {
      underWay++;
      // 'close' comes once per response, sent or abandoned by the client
      reply.raw.once('close', () => {
        underWay--;
        if (underWay === 0) drained?.();
      });
    });
    app.addHook('preClose', async () => {
      if (underWay === 0) return;
      await new Promise<void>((resolve) => {
        const deadline = setTimeout(() => {
          app.log.warn({ underWay }, 'requests still under way when the drain time ran out; their connections are cut');
          resolve();
        }, options.drainMs);
        drained = () => {
          clearTimeout(deadline);
          resolve();
        };
      });
    });
  },
  { name: 'request-drain' },
);
