import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { testDatabases } from '../../support/databases.js';
import { startService, type TestService } from '../../support/service.js';
import { launchBrowser } from './browser.js';
import { startHostPage, type HostPage } from './host-page.js';

/**
 * One browser for the test file: launched before its first test, closed after its last. Answers a getter,
 * since the browser exists only once the tests run: `const browser = browserForThisFile();` then
 * `browser().newContext()` inside a test.
 */
export function browserForThisFile(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => {
    if (!browser) throw new Error('the browser is launched before the first test of the file');
    return browser;
  };
}

/** The service with the example integrator, and an integrator's page on another origin that embeds its editors. */
export interface ServiceForThisFile {
  readonly svc: TestService;
  readonly host: HostPage;
  /** A file's plain text as the backend API reads it (what the editors stored). */
  plainText(fileId: string): Promise<string | undefined>;
}

/**
 * One service (first test database, example integrator with `users` besides its default user) and one host page
 * for the test file, started before its first test and closed after its last, as `browserForThisFile` does for the
 * browser: `const running = serviceForThisFile(...)` then `running.svc` inside a test.
 */
export function serviceForThisFile(users: ReadonlyArray<{ id: string; name: string; token: string }> = []): ServiceForThisFile {
  let svc: TestService | undefined;
  let host: HostPage | undefined;
  beforeAll(async () => {
    svc = await startService(testDatabases()[0]!, { integrator: true });
    host = await startHostPage(svc.url);
    for (const user of users) svc.integrator.addUser(user);
  }, 60_000);
  afterAll(async () => {
    await host?.close();
    await svc?.close();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error('the service starts before the first test of the file');
    return value;
  };
  return {
    get svc() {
      return started(svc);
    },
    get host() {
      return started(host);
    },
    async plainText(fileId) {
      return (await started(svc).call('GET', `/sdk/v2/collab-files/${fileId}/plain-text`)).body.data?.content;
    },
  };
}
