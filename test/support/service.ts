import { loadConfig, type Config } from '../../src/config.js';
import type { App, AppSettings } from '../../src/domain/apps/app-service.js';
import { buildServer } from '../../src/server.js';
import { createServices, type Services } from '../../src/services.js';
import { openStorage } from '../../src/storage/database.js';
import type { TestDatabase } from './databases.js';
import { sign, signLicense, type SignOptions } from './signing.js';

export interface CallOptions {
  body?: unknown;
  /** raw body text, sent as is (for malformed JSON) */
  rawBody?: string;
  headers?: Record<string, string>;
  signature?: string | null;
  token?: string | null;
  query?: Record<string, string | number>;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface TestService {
  url: string;
  services: Services;
  /** an application created for this test, with its secret */
  app: App;
  createApp(settings?: AppSettings & { id?: string }): Promise<App>;
  sign(options?: SignOptions, app?: App): Promise<string>;
  signLicense(app?: App): Promise<string>;
  /** HTTP call to the running server; signs as `app` with a plain signature unless told otherwise. */
  call<T = any>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>;
  close(): Promise<void>;
}

/**
 * Starts the real HTTP server on a loopback port over a fresh database of the given engine, with one
 * application ready. Tests talk to it over HTTP only.
 */
export async function startService(database: TestDatabase, configOverrides: Partial<Config> = {}): Promise<TestService> {
  const fresh = await database.fresh();
  const config: Config = { ...loadConfig({}), ...configOverrides, dataDir: fresh.options.dataDir, databaseUrl: fresh.options.databaseUrl };
  const storage = await openStorage(fresh.options);
  const services = createServices(config, storage);
  const server = await buildServer(services, { logger: false });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind');
  const url = `http://127.0.0.1:${address.port}`;
  const app = await services.apps.create({ name: 'Test app' });

  const service: TestService = {
    url,
    services,
    app,
    createApp: (settings = {}) => services.apps.create(settings),
    sign: (options = {}, who = app) => sign(who.id, who.secret, options),
    signLicense: (who = app) => signLicense(who.id, who.secret),
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.signature !== null && !('x-svc-signature' in headers)) {
        headers['x-svc-signature'] = options.signature ?? (await service.sign());
      }
      if (options.token !== null) headers['x-svc-token'] = options.token ?? 'user-token';
      let body: string | undefined;
      if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (body !== undefined && !('content-type' in headers)) headers['content-type'] = 'application/json';
      const query = options.query ? `?${new URLSearchParams(Object.entries(options.query).map(([k, v]): [string, string] => [k, String(v)]))}` : '';
      const response = await fetch(`${url}${path}${query}`, { method, headers, body });
      const text = await response.text();
      let parsed: unknown = undefined;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, headers: response.headers, body: parsed as any, text };
    },
    async close() {
      await server.close();
      await storage.close();
      await fresh.dispose();
    },
  };
  return service;
}
