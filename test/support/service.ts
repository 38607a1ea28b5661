import type { Writable } from 'node:stream';
import { loadConfig, type Config } from '../../src/config.js';
import type { App, AppSettings } from '../../src/apps/app.js';
import { buildServer } from '../../src/server.js';
import { createServices, type Services } from '../../src/services.js';
import { openStorage } from '../../src/storage/database.js';
import type { TestDatabase } from './databases.js';
import { sign, signLicense, type SignOptions } from './signing.js';
import type { ReferenceIntegrator } from '../../examples/integrator/integrator.js';
import { FAST_DELIVERY, startTestIntegrator, type TestIntegratorOptions } from './integrator.js';

export interface CallOptions {
  body?: unknown;
  /** raw body, sent as is: text (for malformed JSON; sent as JSON unless a content type is given), bytes, or a multipart form */
  rawBody?: string | Uint8Array | FormData;
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
  /** the reference integrator behind the app's endpoint URL; only with `{ integrator: true }` (throws otherwise) */
  integrator: ReferenceIntegrator;
}

export interface StartOptions extends Partial<Config> {
  /** start the reference integrator (test/support/integrator.ts) and point the test apps at it */
  integrator?: boolean | TestIntegratorOptions;
  /** write the server's log lines (JSON, one per line) here instead of discarding them */
  logTo?: Writable;
}

/**
 * Starts the real HTTP server on a loopback port over a fresh database of the given engine, with one
 * application ready. Tests talk to it over HTTP only.
 */
export async function startService(database: TestDatabase, startOptions: StartOptions = {}): Promise<TestService> {
  const { integrator: integratorOption, logTo, ...configOverrides } = startOptions;
  const fresh = await database.fresh();
  const defaults = loadConfig({});
  const config: Config = {
    ...defaults,
    ...configOverrides,
    integratorLink: { ...defaults.integratorLink, ...FAST_DELIVERY, ...configOverrides.integratorLink },
    dataDir: fresh.options.dataDir,
    databaseUrl: fresh.options.databaseUrl,
  };
  const secrets = new Map<string, string>();
  const integrator = integratorOption
    ? await startTestIntegrator((appId) => secrets.get(appId), integratorOption === true ? {} : integratorOption)
    : undefined;
  const endpoint = integrator ? { endpointUrl: integrator.url } : {};
  const storage = await openStorage({ ...fresh.options, connectTimeoutMs: config.databaseTimeoutMs });
  const services = createServices(config, storage);
  const server = await buildServer(services, { logger: logTo ? { level: 'info', stream: logTo } : false });
  await server.listen({ port: 0, host: '127.0.0.1' });
  const address = server.server.address();
  if (!address || typeof address === 'string') throw new Error('server did not bind');
  const url = `http://127.0.0.1:${address.port}`;
  const app = await services.apps.create({ name: 'Test app', ...endpoint });
  secrets.set(app.id, app.secret);

  const service: TestService = {
    url,
    services,
    app,
    async createApp(settings = {}) {
      const created = await services.apps.create({ ...endpoint, ...settings });
      secrets.set(created.id, created.secret);
      return created;
    },
    get integrator(): ReferenceIntegrator {
      if (!integrator) throw new Error('start the service with { integrator: true } to use svc.integrator');
      return integrator;
    },
    sign: (options = {}, who = app) => sign(who.id, who.secret, options),
    signLicense: (who = app) => signLicense(who.id, who.secret),
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { ...options.headers };
      if (options.signature !== null && !('x-svc-signature' in headers)) {
        headers['x-svc-signature'] = options.signature ?? (await service.sign());
      }
      if (options.token !== null) headers['x-svc-token'] = options.token ?? 'user-token';
      let body: string | Uint8Array<ArrayBuffer> | FormData | undefined;
      // A copy gives the ArrayBuffer-backed view fetch's BodyInit asks for (a Buffer may sit on a SharedArrayBuffer).
      if (options.rawBody instanceof Uint8Array) body = new Uint8Array(options.rawBody);
      else if (options.rawBody !== undefined) body = options.rawBody;
      else if (options.body !== undefined) body = JSON.stringify(options.body);
      if (typeof body === 'string' && !('content-type' in headers)) headers['content-type'] = 'application/json';
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
      await integrator?.close();
      await storage.close();
      await fresh.dispose();
    },
  };
  return service;
}
