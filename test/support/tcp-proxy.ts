import net from 'node:net';

export type ProxyMode = 'forward' | 'refuse' | 'blackhole';

/**
 * A TCP proxy a fault test owns, between the service and a server (PostgreSQL, the integrator): `forward`
 * passes bytes both ways; `refuse` cuts every open connection and closes new ones at once; `blackhole` cuts
 * them and accepts new ones that never answer (a database that is slow to the point of silence).
 */
export interface TcpProxy {
  readonly port: number;
  mode: ProxyMode;
  /** Cuts every connection open now. */
  cutAll(): void;
  close(): Promise<void>;
}

export async function startTcpProxy(target: { host: string; port: number }): Promise<TcpProxy> {
  const open = new Set<net.Socket>();
  let mode: ProxyMode = 'forward';
  const track = (socket: net.Socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
    socket.on('error', () => socket.destroy());
  };
  const server = net.createServer((client) => {
    track(client);
    if (mode === 'refuse') {
      client.destroy();
      return;
    }
    if (mode === 'blackhole') return;
    const upstream = net.connect(target.port, target.host);
    track(upstream);
    client.pipe(upstream);
    upstream.pipe(client);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const cutAll = () => {
    for (const socket of open) socket.destroy();
  };
  return {
    port: (server.address() as net.AddressInfo).port,
    get mode() {
      return mode;
    },
    set mode(next: ProxyMode) {
      mode = next;
      if (next !== 'forward') cutAll();
    },
    cutAll,
    close: async () => {
      cutAll();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
