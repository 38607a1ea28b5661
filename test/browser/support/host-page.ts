import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';

/**
 * An integrator's page on another origin than the service: `http://localhost:{port}/` while the service
 * listens on 127.0.0.1, so the SDK's messages cross origins as they do in production. `/` imports the SDK
 * module, `/script` loads the `<script>` build and reads its global. The page records what the host callbacks
 * receive in `window.hostCalls`, the editor events in `window.editorEvents` and the sdk object's events in
 * `window.sdkEvents`. `getCredentials` answers with `window.freshCredentials()` when the test exposed one.
 */
export interface HostPage {
  url: string;
  scriptUrl: string;
  close(): Promise<void>;
}

const HOST_SCRIPT = `
  window.hostCalls = [];
  window.editorEvents = [];
  window.sdkEvents = [];
  window.openEditor = async (options) => {
    const record = (name) => (...args) => { window.hostCalls.push({ name, args }); };
    try {
      const sdk = new SDK.OfficeSDK({
        container: document.getElementById('editor'),
        endpoint: window.serviceUrl + '/sdk/v2',
        openLink: record('openLink'),
        generateUrl: (fileId, info) => { record('generateUrl')(fileId, info); return 'http://localhost/files/' + fileId; },
        showToast: record('showToast'),
        getCredentials: async () => {
          record('getCredentials')();
          if (!window.freshCredentials) throw new Error('this test gives no fresh credentials');
          return window.freshCredentials();
        },
        ...options,
      });
      window.sdk = sdk;
      for (const name of [SDK.Event.ReadyState, SDK.Event.Error, SDK.Event.EditorRendered, SDK.Event.PushMessage]) {
        sdk.on(name, (payload) => window.sdkEvents.push({ name, payload: payload instanceof Error ? { code: payload.code, message: payload.message } : payload }));
      }
      await sdk.init();
      const editor = sdk.getEditor();
      for (const name of ['saveStatusChanged', 'collaboratorsChanged', 'titleChange', 'editForbiddenConfirmed']) {
        await editor.on(name, (payload) => window.editorEvents.push({ name, payload }));
      }
      return { ok: true, fileType: sdk.fileType, readyState: sdk.readyState };
    } catch (error) {
      return { ok: false, code: error.code, message: error.message, readyState: window.sdk?.readyState };
    }
  };
  window.hostReady = true;
`;

function pageHtml(serviceUrl: string, build: 'module' | 'script'): string {
  const loader =
    build === 'module'
      ? `<script type="module">import * as SDK from '${serviceUrl}/sdk/v2/js/sdk.mjs';\nwindow.SDK = SDK;\nwindow.serviceUrl = '${serviceUrl}';\n${HOST_SCRIPT}</script>`
      : `<script src="${serviceUrl}/sdk/v2/js/sdk.js"></script>\n<script>const SDK = window.SvcJSSDK;\nwindow.SDK = SDK;\nwindow.serviceUrl = '${serviceUrl}';\n${HOST_SCRIPT}</script>`;
  return `<!doctype html>
<html><head><meta charset="utf-8"><title>Host page</title>
<style>html,body{margin:0;height:100%}#editor{height:100vh}</style></head>
<body><div id="editor"></div>
${loader}
</body></html>`;
}

export async function startHostPage(serviceUrl: string): Promise<HostPage> {
  const pages = { module: pageHtml(serviceUrl, 'module'), script: pageHtml(serviceUrl, 'script') };
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const html = path === '/' ? pages.module : path === '/script' ? pages.script : undefined;
    if (html) res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(html);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, 'localhost', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://localhost:${port}/`,
    scriptUrl: `http://localhost:${port}/script`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface OpenResult {
  ok: boolean;
  fileType?: string;
  readyState?: string;
  code?: number | string;
  message?: string;
}

export interface OpenOptions {
  fileId: string;
  token: string;
  signature: string;
  lang?: string;
  smParams?: unknown;
  showLoading?: boolean;
  messageExpires?: number;
}

/**
 * Opens the host page in `page` (`host`: the page, which loads the SDK as a module, or the URL of one of its
 * variants) and connects the SDK; resolves with what connect gave.
 */
export async function openInHost(page: Page, host: HostPage | string, options: OpenOptions): Promise<OpenResult> {
  await page.goto(typeof host === 'string' ? host : host.url);
  await page.waitForFunction(() => (globalThis as unknown as { hostReady?: boolean }).hostReady === true);
  return page.evaluate((connectOptions) => (globalThis as unknown as { openEditor(o: unknown): Promise<OpenResult> }).openEditor(connectOptions), options);
}

/** What the host page recorded (see HostPage). */
export function recorded<T = unknown>(page: Page, name: 'hostCalls' | 'editorEvents' | 'sdkEvents'): Promise<Array<{ name: string; payload?: T; args?: unknown[] }>> {
  return page.evaluate((key) => (globalThis as unknown as Record<string, Array<{ name: string; payload?: T; args?: unknown[] }>>)[key]!, name);
}
