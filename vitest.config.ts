import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // this machine (and CI on it) has two cores shared by browsers, databases and servers: a state a page
    // reaches in 50 ms alone can take seconds under load, so a poll waits that long before calling it a failure
    expect: { poll: { timeout: 10_000, interval: 50 } },
    reporters: ['default', './test/support/summary-reporter.ts'],
    globalSetup: ['./test/support/browser-build.ts'],
  },
});
