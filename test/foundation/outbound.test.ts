import http from 'node:http';
import type { AddressInfo } from 'node:net';
import fc from 'fast-check';
import { request } from 'undici';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { OutboundPolicy, OutboundRefusedError } from '../../src/net/outbound-policy.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

/** Addresses no configuration may reach: metadata services, link-local, unspecified, in the forms URL parsing accepts. */
const ALWAYS_REFUSED_URLS = [
  'http://169.254.169.254/latest/meta-data/',
  'http://169.254.170.2/v2/credentials',
  'http://2852039166/', // 169.254.169.254 as one number
  'http://0xa9.0xfe.0xa9.0xfe/',
  'http://[::ffff:169.254.169.254]/',
  'http://[fe80::1]/',
  'http://[fd00:ec2::254]/',
  'http://[64:ff9b::169.254.169.254]/',
  // every IPv6 spelling of 169.254.169.254 and 0.0.0.0: compatible, mapped in hex, NAT64 (well-known and
  // local-use prefixes), 6to4, Teredo (client address inverted)
  'http://[::a9fe:a9fe]/',
  'http://[::169.254.169.254]/',
  'http://[0:0:0:0:0:ffff:a9fe:a9fe]/',
  'http://[64:ff9b::a9fe:a9fe]/',
  'http://[64:ff9b:1::a9fe:a9fe]/',
  'http://[2002:a9fe:a9fe::1]/',
  'http://[2001:0:4136:e378:8000:63bf:5601:5601]/',
  'http://[::ffff:0.0.0.0]/',
  'http://[::ffff:224.0.0.1]/',
  'http://100.100.100.200/',
  'http://metadata.google.internal/computeMetadata/v1/',
  'http://METADATA.google.internal./',
  'http://metadata.goog/',
  'http://0.0.0.0:8080/',
  'http://0/',
  'http://[::]/',
  'http://224.0.0.1/',
  'http://255.255.255.255/',
];
const PRIVATE_URLS = [
  'http://127.0.0.1:3000/',
  'http://localhost:8080/',
  'http://10.1.2.3/',
  'http://172.20.0.5/',
  'http://192.168.1.10/',
  'http://[::1]/',
  'http://[fd12::5]/',
  'http://[::7f00:1]/',
  'http://[::ffff:a01:203]/',
  'http://[64:ff9b::c0a8:10a]/',
  'http://[2002:a00:1::]/',
];
const CONTROL_URLS = ['http://exa\tmple.com/', 'http://example.com/\nx', '\u0000http://example.com/', 'http://example.com/a\u0085b', 'http://example.com/\u007f'];

describe('outbound policy', () => {
  const open = new OutboundPolicy({ allowPrivateNetworks: true });
  const closed = new OutboundPolicy({ allowPrivateNetworks: false });

  it('refuses metadata, link-local, unspecified and multicast addresses whatever the configuration', () => {
    for (const url of ALWAYS_REFUSED_URLS) {
      expect(() => open.assertUrl(url), url).toThrow(OutboundRefusedError);
      expect(() => closed.assertUrl(url), url).toThrow(OutboundRefusedError);
    }
  });

  it('allows private and loopback addresses by default, refuses them when the operator says so', () => {
    for (const url of PRIVATE_URLS) {
      expect(open.assertUrl(url).href, url).toBe(url);
      expect(() => closed.assertUrl(url), url).toThrow(OutboundRefusedError);
    }
    expect(closed.assertUrl('https://crm.example.com/hooks').hostname).toBe('crm.example.com');
    expect(closed.assertUrl('http://8.8.8.8/').hostname).toBe('8.8.8.8');
  });

  it('judges an IPv6 address by the IPv4 address it carries, in every spelling', () => {
    const v4 = fc.tuple(fc.nat(255), fc.nat(255), fc.nat(255), fc.nat(255));
    const hex = (a: number, b: number) => ((a << 8) | b).toString(16);
    fc.assert(
      fc.property(v4, fc.nat(4), ([a, b, c, d], form) => {
        const ipv4 = `${a}.${b}.${c}.${d}`;
        const ipv6 = [`::ffff:${ipv4}`, `::ffff:${hex(a, b)}:${hex(c, d)}`, `64:ff9b::${ipv4}`, `2002:${hex(a, b)}:${hex(c, d)}::`, `::${hex(a, b)}:${hex(c, d)}`][form]!;
        if (form === 4 && a === 0 && b === 0 && c === 0 && d <= 1) return; // :: and ::1 are IPv6's own
        for (const policy of [open, closed]) expect(policy.refusalOfAddress(ipv6) === undefined, ipv6).toBe(policy.refusalOfAddress(ipv4) === undefined);
      }),
    );
    expect(open.refusalOfAddress('2001:db8::1')).toBeUndefined();
    expect(closed.refusalOfAddress('2606:4700::1111')).toBeUndefined();
  });

  it('refuses control characters instead of letting URL parsing drop them', () => {
    for (const url of CONTROL_URLS) expect(() => open.assertUrl(url), JSON.stringify(url)).toThrow(/control characters/);
    const control = fc.integer({ min: 0, max: 0x9f }).filter((code) => code < 0x20 || code >= 0x7f).map((code) => String.fromCharCode(code));
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https'] }), control, fc.nat(), (url, character, at) => {
        const position = at % (url.length + 1);
        expect(() => open.assertUrl(`${url.slice(0, position)}${character}${url.slice(position)}`)).toThrow(OutboundRefusedError);
      }),
    );
  });

  it('never throws anything but OutboundRefusedError, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 300 }), (raw) => {
        try {
          open.assertUrl(raw);
        } catch (error) {
          expect(error).toBeInstanceOf(OutboundRefusedError);
        }
      }),
    );
  });
});

describe('outbound connections', () => {
  let target: http.Server;
  let port: number;
  let hits = 0;
  beforeAll(async () => {
    target = http.createServer((req, res) => {
      hits++;
      if (req.url === '/redirect') res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
      else res.end('reached');
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    port = (target.address() as AddressInfo).port;
  });
  afterAll(async () => new Promise((resolve) => target.close(resolve)));
  beforeEach(() => {
    hits = 0;
  });

  /** A name whose answer changes between the check and the connection: the DNS rebinding attack. */
  function rebinding(addresses: string[]) {
    const answers = [...addresses];
    return async () => [{ address: answers.length > 1 ? answers.shift()! : answers[0]!, family: 4 }];
  }

  it('checks the address a name resolves to at connect time (DNS rebinding)', async () => {
    const policy = new OutboundPolicy({ allowPrivateNetworks: true, resolve: rebinding(['127.0.0.1', '169.254.169.254']) });
    const url = `http://integrator.example:${port}/`;
    expect(policy.assertUrl(url).hostname).toBe('integrator.example');
    const first = policy.dispatcher();
    const reached = await request(url, { dispatcher: first });
    expect(await reached.body.text()).toBe('reached');
    await first.close();
    // a fresh connection resolves again, and this time the name points at the metadata service
    const second = policy.dispatcher();
    await expect(request(url, { dispatcher: second })).rejects.toThrow(/integrator\.example resolves to 169\.254\.169\.254 is a link-local address/);
    await second.close();
    expect(hits).toBe(1);
  });

  it('refuses an IP literal before connecting, and loopback when private networks are refused', async () => {
    const open = new OutboundPolicy({ allowPrivateNetworks: true }).dispatcher();
    const closed = new OutboundPolicy({ allowPrivateNetworks: false }).dispatcher();
    await expect(request('http://169.254.169.254/latest/meta-data/', { dispatcher: open })).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(request(`http://127.0.0.1:${port}/`, { dispatcher: closed })).rejects.toBeInstanceOf(OutboundRefusedError);
    await expect(request(`http://localhost:${port}/`, { dispatcher: closed })).rejects.toBeInstanceOf(OutboundRefusedError);
    expect(hits).toBe(0);
    await Promise.all([open.close(), closed.close()]);
  });

  it('refuses a redirect to a forbidden address when fetch follows it', async () => {
    const dispatcher = new OutboundPolicy({ allowPrivateNetworks: true }).dispatcher();
    const { fetch } = await import('undici');
    const error = await fetch(`http://127.0.0.1:${port}/redirect`, { dispatcher }).catch((caught: unknown) => caught);
    expect((error as Error & { cause?: unknown }).cause).toBeInstanceOf(OutboundRefusedError);
    expect(hits).toBe(1);
    await dispatcher.close();
  });
});

for (const database of testDatabases()) {
  describe(`endpoint URL under the outbound policy [${database.name}]`, () => {
    let svc: TestService;
    afterEach(async () => svc.close());

    const setEndpoint = async (url: string) =>
      svc.call('PUT', `/sdk/v2/api/license/apps/${svc.app.id}/endpoint-url`, { signature: await svc.signLicense(), token: null, body: { url } });

    it('refuses metadata, link-local and unspecified addresses and control characters with 10001, changing nothing', async () => {
      svc = await startService(database, { integrator: true });
      for (const url of [...ALWAYS_REFUSED_URLS, ...CONTROL_URLS]) {
        const response = await setEndpoint(url);
        expect(response.status, JSON.stringify(url)).toBe(400);
        // a NUL (C0 but tab, CR, LF) is refused by every route before the outbound policy sees it (127003)
        if (/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(url)) expect(response.body, JSON.stringify(url)).toMatchObject({ status: 127003 });
        else expect(response.body).toMatchObject({ status: 10001, message: expect.stringContaining('invalid endpoint URL') });
      }
      expect((await svc.services.apps.get(svc.app.id)).endpointUrl).toBe(svc.integrator.url);
      expect((await setEndpoint('http://10.0.0.7:8080/hooks')).status).toBe(200);
      expect((await svc.services.apps.get(svc.app.id)).endpointUrl).toBe('http://10.0.0.7:8080/hooks');
    });

    it('refuses private and loopback endpoints when SVC_OUTBOUND_PRIVATE_NETWORKS=refuse', async () => {
      svc = await startService(database, { outbound: { allowPrivateNetworks: false } });
      for (const url of PRIVATE_URLS) expect((await setEndpoint(url)).body.status, url).toBe(10001);
      expect((await setEndpoint('https://crm.example.com/hooks')).status).toBe(200);
    });

    it('refuses at call time an endpoint stored before the policy existed: 10015, no connection', async () => {
      svc = await startService(database, { integrator: true });
      // older versions stored such URLs; the row is written as they wrote it, then the app is read afresh
      await svc.services.storage.db.updateTable('apps').set({ endpoint_url: 'http://169.254.169.254/latest' }).where('id', '=', svc.app.id).execute();
      await svc.services.apps.update(svc.app.id, { name: 'Stored before the policy' });
      const response = await svc.call('GET', '/sdk/v2/collab-files/some-file/plain-text');
      expect(response.status).toBe(502);
      expect(response.body).toMatchObject({ status: 10015, message: expect.stringContaining('169.254.169.254 is a link-local address') });
    });
  });
}
