import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDACTED, redactHeaders, redactUrl } from '../../src/http/log-redaction.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

describe('redactUrl', () => {
  it('replaces credential values and keeps everything else', () => {
    expect(redactUrl('/sdk/v2/collab-files/doc?signature=abc.def.ghi&token=t0k&lang=en')).toBe(
      `/sdk/v2/collab-files/doc?signature=${REDACTED}&token=${REDACTED}&lang=en`,
    );
    expect(redactUrl('/x?access_token=1&X-Shimo-Token=2&sig%6Eature=3&page=2')).toBe(`/x?access_token=${REDACTED}&X-Shimo-Token=${REDACTED}&sig%6Eature=${REDACTED}&page=2`);
    expect(redactUrl('/plain/path')).toBe('/plain/path');
  });

  it('redacts the sig of download and preview links (the link alone opens the file)', () => {
    expect(redactUrl('/sdk/v2/exports/d1?expires=1700000000&sig=0123abcd')).toBe(`/sdk/v2/exports/d1?expires=1700000000&sig=${REDACTED}`);
    expect(redactUrl('/sdk/v2/previews/view/file?app=a&task=t&expires=1&SIG=ff&page=2')).toBe(`/sdk/v2/previews/view/file?app=a&task=t&expires=1&SIG=${REDACTED}&page=2`);
    // names that merely contain the letters stay readable
    expect(redactUrl('/x?design=1&sigma=2')).toBe('/x?design=1&sigma=2');
  });

  it('never lets a credential value through, whatever the query around it', () => {
    const name = fc.constantFrom('signature', 'token', 'Token', 'accessToken', 'x-svc-signature', 'userToken', 'sig', 'appSecret');
    const secret = fc.stringMatching(/^[A-Za-z0-9._-]{12,40}$/);
    const other = fc.array(fc.tuple(fc.stringMatching(/^[a-z]{1,8}$/).filter((n) => !/token|signature|secret|password|key|ticket|cookie|authorization|^sig$/.test(n)), fc.stringMatching(/^[a-z0-9]{0,8}$/)), { maxLength: 4 });
    fc.assert(
      fc.property(name, secret, other, other, (credential, value, before, after) => {
        const pairs = [...before.map(([k, v]) => `${k}=${v}`), `${credential}=${value}`, ...after.map(([k, v]) => `${k}=${v}`)];
        const redacted = redactUrl(`/p?${pairs.join('&')}`);
        expect(redacted).not.toContain(value);
        for (const [k, v] of [...before, ...after]) expect(redacted).toContain(`${k}=${v}`);
      }),
    );
  });

  it('redacts credential headers by name', () => {
    expect(redactHeaders({ 'x-svc-signature': 'a', 'X-Shimo-Token': 'b', authorization: 'c', 'user-agent': 'curl' })).toEqual({
      'x-svc-signature': REDACTED,
      'X-Shimo-Token': REDACTED,
      authorization: REDACTED,
      'user-agent': 'curl',
    });
  });
});

const [sqlite] = testDatabases();
describe('log lines', () => {
  let svc: TestService;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new PassThrough();
    stream.on('data', (chunk: Buffer) => lines.push(...chunk.toString().split('\n').filter(Boolean)));
    svc = await startService(sqlite!, { integrator: true, logTo: stream });
  });
  afterAll(async () => svc.close());

  it('never carry a signature or token sent in the query or in headers, on success and on every refusal', async () => {
    const signature = await svc.sign();
    const token = 'user-token';
    const forged = `${signature.slice(0, -6)}AAAAAA`;
    await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'document', fileId: 'doc' } });
    const query = (s: string, t: string) => new URLSearchParams({ signature: s, token: t }).toString();
    const answers = [
      await fetch(`${svc.url}/sdk/v2/collab-files/doc/plain-text?${query(signature, token)}`),
      await fetch(`${svc.url}/sdk/v2/collab-files/doc/plain-text?${query(forged, token)}`),
      await fetch(`${svc.url}/sdk/v2/collab-files/doc/plain-text?${query(signature, 'unknown-user-token-xyz')}`),
      await fetch(`${svc.url}/sdk/v2/collab-files/doc?${query(signature, token)}&lang=en`),
      await fetch(`${svc.url}/sdk/v2/api/table-api/openapi/v1/tables?baseGuid=doc&${query(signature, token)}`),
      await fetch(`${svc.url}/sdk/v2/no-such-route?${query(signature, token)}`),
      await fetch(`${svc.url}/sdk/v2/collab-files/doc/plain-text`, { headers: { 'x-svc-signature': forged, 'x-svc-token': token } }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401, 401, 200, 404, 404, 401]);
    const linkSig = 'a1b2c3d4e5f60718293a4b5c6d7e8f90';
    const links = [
      await fetch(`${svc.url}/sdk/v2/exports/0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b?expires=4102444800&sig=${linkSig}`),
      await fetch(`${svc.url}/sdk/v2/previews/view/file?app=a&task=t&expires=4102444800&sig=${linkSig}`),
    ];
    expect(links.every((answer) => answer.status >= 400 && answer.status < 500)).toBe(true);
    await new Promise<void>((resolve) => {
      const socket = new WebSocket(`${svc.url.replace(/^http/, 'ws')}/sdk/v2/collab-files/doc/collaboration?${query(forged, token)}`);
      socket.on('error', () => resolve());
      socket.on('close', () => resolve());
    });

    expect(lines.length).toBeGreaterThan(10);
    const leaking = lines.filter((line) => [signature, forged, signature.split('.')[2]!, token, 'unknown-user-token-xyz', linkSig].some((secret) => line.includes(secret)));
    expect(leaking).toEqual([]);
    const urls = lines.map((line) => JSON.parse(line) as { req?: { url: string } }).flatMap((entry) => (entry.req ? [entry.req.url] : []));
    expect(urls).toContain(`/sdk/v2/collab-files/doc/plain-text?signature=${REDACTED}&token=${REDACTED}`);
    expect(urls).toContain(`/sdk/v2/collab-files/doc?signature=${REDACTED}&token=${REDACTED}&lang=en`);
  });
});
