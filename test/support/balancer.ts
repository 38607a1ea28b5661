import net from 'node:net';

export interface Balancer {
  /** `http://127.0.0.1:<port>`: what clients connect to */
  url: string;
  /** where new connections go from now on (connections already made stay where they are) */
  target: string;
  close(): Promise<void>;
}

/**
 * A TCP load balancer in front of service instances, as deployments put one: each new connection is piped
 * to the current target. Tests switch the target when they take an instance out, as a balancer's health
 * check would.
 */
export async function startBalancer(target: string): Promise<Balancer> {
  const sockets = new Set<net.Socket>();
  const track = (socket: net.Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  };
  const server = net.createServer((client) => {
    const { hostname, port } = new URL(balancer.target);
    const upstream = net.connect(Number(port), hostname);
    track(client);
    track(upstream);
    client.pipe(upstream).pipe(client);
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const balancer: Balancer = {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    target,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return balancer;
}
