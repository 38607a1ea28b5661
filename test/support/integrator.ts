import { startIntegrator, type ReferenceIntegrator } from '../../examples/integrator/integrator.js';
import type { IntegratorConfig } from '../../src/config.js';

/**
 * The reference integrator (examples/integrator) as tests use it: `startService(db, { integrator: true })`
 * starts one on a loopback port, points the test app's endpoint URL at it and registers DEFAULT_USER, whose
 * token is the one `svc.call` sends by default. Tests add users, files and grants through `svc.integrator`
 * (`addUser`, `addFile`, `grant`), read `svc.integrator.events` (deduplicated) or `.deliveries` (all), and
 * play a failing integrator with `svc.integrator.intercept` / `eventsAnswer`.
 */
export const DEFAULT_USER = { id: 'user-1', name: 'Test User', email: 'user-1@example.com', token: 'user-token' } as const;

export interface TestIntegratorOptions {
  /**
   * Files the integrator was not told about resolve as documents the caller fully controls (default true,
   * so a test can create and use a file without registering it). `false`: unknown files answer 404.
   */
  autoFiles?: boolean;
}

/** Delivery settings that make a test's events arrive in milliseconds and retries happen at once. */
export const FAST_DELIVERY: Partial<IntegratorConfig> = {
  deliveryPollMs: 20,
  deliveryRetryBaseMs: 50,
  deliveryMaxDelayMs: 400,
  deliveryTimeoutMs: 2000,
  callbackTimeoutMs: 2000,
};

export async function startTestIntegrator(secretOf: (appId: string) => string | undefined, options: TestIntegratorOptions = {}): Promise<ReferenceIntegrator> {
  const integrator = await startIntegrator({ secretOf, autoFiles: options.autoFiles ?? true });
  integrator.addUser({ ...DEFAULT_USER });
  return integrator;
}

/** Waits until `check` returns true (polling), or fails with `what` after `timeoutMs`. */
export async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
