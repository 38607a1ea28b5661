import { request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

interface PageAnswer {
  status: number;
  headers: Headers;
  html: string;
  boot: Record<string, any> | undefined;
  error: { code: number; message: string; channel: string | null } | undefined;
}

function scriptJson(html: string, id: string): Record<string, any> | undefined {
  const match = new RegExp(`<script type="application/json" id="${id}">([^<]*)</script>`).exec(html);
  return match ? (JSON.parse(match[1]!) as Record<string, any>) : undefined;
}

async function openPage(svc: TestService, fileId: string, query: Record<string, string>, headers: Record<string, string> = {}): Promise<PageAnswer> {
  const response = await fetch(`${svc.url}/sdk/v2/collab-files/${encodeURIComponent(fileId)}?${new URLSearchParams(query)}`, { headers });
  const html = await response.text();
  return { status: response.status, headers: response.headers, html, boot: scriptJson(html, 'svc-boot'), error: scriptJson(html, 'svc-error') as PageAnswer['error'] };
}

function expectPageHeaders(answer: PageAnswer): void {
  expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
  expect(answer.headers.get('cache-control')).toBe('no-store');
  expect(answer.headers.get('referrer-policy')).toBe('no-referrer');
  expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
  expect(answer.headers.get('content-security-policy')).toMatch(/frame-ancestors [^;]+/);
  expect(answer.headers.get('content-security-policy')).toContain("script-src 'self'");
}

describe.each(testDatabases())('editor page ($name)', (db) => {
  let svc: TestService;
  let signature: string;
  beforeAll(async () => {
    svc = await startService(db, { integrator: { autoFiles: false } });
    signature = await svc.sign();
    svc.integrator.addUser({ id: 'reader', name: 'Reader', token: 'reader-token' });
    svc.integrator.addUser({ id: 'outsider', name: 'Outsider', token: 'outsider-token' });
    svc.integrator.addFile({ id: 'doc', type: 'document', name: 'Quarterly plan', grants: { 'user-1': { readable: true, editable: true, commentable: true }, reader: { readable: true } } });
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' } });
  });
  afterAll(async () => svc.close());

  it('serves the editor application with what the integrator says of the user and the file', async () => {
    const page = await openPage(svc, 'doc', { token: 'user-token', signature, uuid: 'channel-1', lang: 'en' });
    expect(page.status).toBe(200);
    expectPageHeaders(page);
    expect(page.html).toMatch(/<script type="module" src="\/sdk\/v2\/editor\/assets\/main-[^"]+\.js"><\/script>/);
    expect(page.html).toMatch(/<link rel="modulepreload" href="\/sdk\/v2\/editor\/assets\/document-[^"]+\.js">/);
    expect(page.boot).toMatchObject({
      fileId: 'doc',
      fileType: 'document',
      title: 'Quarterly plan',
      lang: 'en',
      user: { id: 'user-1', name: 'Test User' },
      permissions: { readable: true, editable: true, commentable: true, manageable: false },
      session: { ticket: expect.stringMatching(/^svs_[\w-]{43}$/), expiresAt: expect.any(Number), signatureExpiresAt: expect.any(Number) },
      channel: 'channel-1',
      apiBase: '/sdk/v2',
    });
    const reader = await openPage(svc, 'doc', { token: 'reader-token', signature });
    expect(reader.boot).toMatchObject({ user: { id: 'reader' }, permissions: { readable: true, editable: false, commentable: false }, lang: 'zh-CN', channel: null });
  });

  it('answers an error page in the page language, carrying the code for the SDK', async () => {
    const cases: Array<{ name: string; fileId: string; query: Record<string, string>; status: number; code: number }> = [
      { name: 'unknown file', fileId: 'nope', query: { token: 'user-token', signature }, status: 404, code: 70013 },
      { name: 'no readable', fileId: 'doc', query: { token: 'outsider-token', signature }, status: 403, code: 40300 },
      { name: 'forged signature', fileId: 'doc', query: { token: 'user-token', signature: signature.slice(0, -4) + 'AAAA' }, status: 401, code: 30003 },
      { name: 'missing signature', fileId: 'doc', query: { token: 'user-token' }, status: 401, code: 30001 },
      { name: 'missing token', fileId: 'doc', query: { signature }, status: 401, code: 30007 },
      { name: 'token the integrator refuses', fileId: 'doc', query: { token: 'who-is-this', signature }, status: 401, code: 10003 },
    ];
    for (const { name, fileId, query, status, code } of cases) {
      const page = await openPage(svc, fileId, { ...query, uuid: 'chan', lang: 'en' });
      expect({ name, status: page.status }).toEqual({ name, status });
      expectPageHeaders(page);
      expect(page.error).toMatchObject({ code, channel: 'chan' });
      expect(page.html).toContain(`<code>${code}</code>`);
      expect(page.html).toContain('This file cannot be opened');
      expect(page.boot).toBeUndefined();
    }
    const expired = await openPage(svc, 'doc', { token: 'user-token', signature: await svc.sign({ expiresIn: -60 }) });
    expect(expired.error?.code).toBe(30004);
    expect(expired.html).toContain('无法打开此文件');
  });

  it("lets only the application's host origins frame the page, its error pages included", async () => {
    const query = { token: 'user-token', signature };
    expect((await openPage(svc, 'doc', query)).headers.get('content-security-policy')).toContain('frame-ancestors *');
    await svc.services.apps.update(svc.app.id, { frameOrigins: ['https://intranet.example', 'https://*.crm.example:8443'] });
    try {
      for (const fileId of ['doc', 'nope']) {
        const policy = (await openPage(svc, fileId, query)).headers.get('content-security-policy');
        expect(policy).toMatch(/frame-ancestors https:\/\/intranet.example https:\/\/\*.crm.example:8443(;|$)/);
      }
      // a forged signature names no application we can trust: its error page may be framed anywhere
      expect((await openPage(svc, 'doc', { ...query, signature: signature.slice(0, -4) + 'AAAA' })).headers.get('content-security-policy')).toContain('frame-ancestors *');
    } finally {
      await svc.services.apps.update(svc.app.id, { frameOrigins: [] });
    }
  });

  it("refuses another application's file as unknown", async () => {
    const other = await svc.createApp({ name: 'Other app' });
    const page = await openPage(svc, 'doc', { token: 'user-token', signature: await svc.sign({}, other) });
    expect(page.status).toBe(404);
    expect(page.error?.code).toBe(70013);
  });

  it('falls back to a language it has: lang, then Accept-Language, then zh-CN', async () => {
    const query = { token: 'user-token', signature };
    expect((await openPage(svc, 'doc', { ...query, lang: 'en' })).boot?.lang).toBe('en');
    expect((await openPage(svc, 'doc', { ...query, lang: 'ja' }, { 'accept-language': 'fr;q=0.9, en-GB;q=0.8' })).boot?.lang).toBe('en');
    expect((await openPage(svc, 'doc', { ...query, lang: 'ru-RU' })).boot?.lang).toBe('zh-CN');
    expect((await openPage(svc, 'doc', { ...query, lang: 'xx' }, { 'accept-language': 'de, zh-Hans;q=0.5' })).boot?.lang).toBe('zh-CN');
    const html = (await openPage(svc, 'nope', { ...query }, { 'accept-language': 'en-US' })).html;
    expect(html).toContain('<html lang="en">');
  });

  it('keeps hostile names and query values inert: escaped into the boot data, never markup', async () => {
    svc.integrator.addUser({ id: 'mallory', name: '</script><script>alert(1)</script>', token: 'mallory-token' });
    svc.integrator.addFile({ id: 'evil', type: 'document', name: '<img src=x onerror=alert(2)>', grants: { mallory: { readable: true } } });
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'evil' } });
    const smParams = '"></script><script>alert(3)</script>';
    const page = await openPage(svc, 'evil', { token: 'mallory-token', signature, smParams, uuid: '<svg onload=alert(4)>', userUuid: 'u\u2028v' });
    expect(page.status).toBe(200);
    expect(page.html).not.toMatch(/<script>alert/);
    expect(page.html).not.toContain('<img src=x');
    expect(page.html).toContain('<title>&lt;img src=x onerror=alert(2)&gt;</title>');
    expect(page.boot).toMatchObject({ title: '<img src=x onerror=alert(2)>', user: { name: '</script><script>alert(1)</script>' }, smParams, channel: null, userUuid: 'u\u2028v' });
  });

  it('refuses an smParams or loadingOptions it cannot take with 40000, in an error page that stores nothing', async () => {
    const query = { token: 'user-token', signature, uuid: 'channel-2', lang: 'en' };
    const hostiles: Array<Record<string, string>> = [{ smParams: 'x'.repeat(5000) }, { smParams: 'a\u0000b' }, { smParams: '{"open": ' }, { loadingEffect: 'true', loadingOptions: '{"logo": "javascript:alert(1)"}' }, { loadingEffect: 'true', loadingOptions: '[1]' }];
    for (const hostile of hostiles) {
      const page = await openPage(svc, 'doc', { ...query, ...hostile });
      expect({ hostile, status: page.status }).toEqual({ hostile, status: 400 });
      // a control character is refused before the page reads the query (127003, docs/ERRORS.md), in the same error page
      const code = Object.values(hostile).some((value) => value.includes('\u0000')) ? 127003 : 40000;
      expect(page.error).toMatchObject({ code, channel: 'channel-2' });
      expect(page.error?.message).toMatch(/smParams|loadingOptions/);
      expect(page.html).toContain('The link that opened this file is not valid.');
      expect(page.boot).toBeUndefined();
    }
    const json = await openPage(svc, 'doc', { ...query, smParams: JSON.stringify({ from: 'intranet', at: [1, 2] }) });
    expect(json.boot?.smParams).toBe('{"from":"intranet","at":[1,2]}');
  });

  it('shows a loading screen with the integrator\'s logo and line when the SDK asks for one, as text', async () => {
    const plain = await openPage(svc, 'doc', { token: 'user-token', signature, lang: 'en' });
    expect(plain.html).not.toContain('svc-loading');
    const loading = await openPage(svc, 'doc', {
      token: 'user-token',
      signature,
      lang: 'en',
      loadingEffect: 'true',
      loadingOptions: JSON.stringify({ logo: 'https://intranet.example/logo.png?a=1&b="2"', tip: '<b>Opening</b> your file' }),
    });
    expect(loading.status).toBe(200);
    expect(loading.html).toContain('<img src="https://intranet.example/logo.png?a=1&amp;b=&quot;2&quot;" alt="">');
    expect(loading.html).toContain('<p>&lt;b&gt;Opening&lt;/b&gt; your file</p>');
    const defaults = await openPage(svc, 'doc', { token: 'user-token', signature, lang: 'zh-CN', loadingEffect: 'true' });
    expect(defaults.html).toMatch(/<div id="svc-loading" class="svc-loading" role="status"><div class="svc-loading-spinner"><\/div><p>正在加载…<\/p><\/div>/);
  });

  it('serves the SDK to any origin with revalidation, and the editor assets for good', async () => {
    for (const file of ['sdk.mjs', 'sdk.js']) {
      const response = await fetch(`${svc.url}/sdk/v2/js/${file}`, { headers: { origin: 'https://intranet.example' } });
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/javascript/);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
      expect(response.headers.get('cross-origin-resource-policy')).toBe('cross-origin');
      expect(response.headers.get('cache-control')).toBe('public, max-age=300');
      const etag = response.headers.get('etag');
      expect(etag).toBeTruthy();
      // undici's request, not fetch: fetch adds Cache-Control: no-cache to a conditional request, as the Fetch spec says
      const again = await request(`${svc.url}/sdk/v2/js/${file}`, { headers: { 'if-none-match': etag! } });
      await again.body.dump();
      expect(again.statusCode).toBe(304);
    }
    const page = await openPage(svc, 'doc', { token: 'user-token', signature });
    const entry = /src="(\/sdk\/v2\/editor\/assets\/[^"]+)"/.exec(page.html)![1]!;
    const asset = await fetch(`${svc.url}${entry}`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    for (const path of ['/sdk/v2/editor/.vite/manifest.json', '/sdk/v2/js/../../../package.json', '/sdk/v2/js/%2e%2e/%2e%2e/package.json', '/sdk/v2/js/missing.js']) {
      const response = await fetch(`${svc.url}${path}`);
      expect({ path, status: response.status }).toEqual({ path, status: expect.any(Number) });
      expect(response.status, path).toBeGreaterThanOrEqual(400);
      expect(response.status, path).toBeLessThan(500);
      expect(await response.text()).not.toContain('"name": "svc"');
    }
  });
});
