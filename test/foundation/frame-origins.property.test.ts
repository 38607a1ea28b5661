import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { checkFrameOrigin, MAX_FRAME_ORIGINS, normalizeFrameOrigins, originAllowed } from '../../src/apps/frame-origins.js';
import { ApiError } from '../../src/errors.js';
import { frameAncestors } from '../../src/http/frame-ancestors.js';

/** What a normalized origin looks like: nothing a CSP or CORS header could trip over. */
const NORMAL_ORIGIN = /^https?:\/\/(\*\.)?[a-z0-9.-]+(:\d{1,5})?$/;

const scheme = fc.constantFrom('http', 'https', 'HTTPS', 'Http');
const host = fc.oneof(
  fc.domain(),
  fc.domain().map((domain) => `*.${domain}`),
  fc.ipV4(),
  fc.constant('localhost'),
  fc.domain().map((domain) => domain.toUpperCase()),
);
const port = fc.option(fc.integer({ min: 1, max: 65535 }), { nil: undefined });
const validOrigin = fc.tuple(scheme, host, port, fc.boolean()).map(([s, h, p, slash]) => `${s}://${h}${p === undefined ? '' : `:${p}`}${slash ? '/' : ''}`);

function refusal(raw: string): string | undefined {
  const checked = checkFrameOrigin(raw);
  return checked.ok ? undefined : checked.why;
}

describe('frame origin rules', () => {
  it('accepts every http(s)://host[:port] (host possibly *.name), in a normal form that is stable and header-safe', () => {
    fc.assert(
      fc.property(validOrigin, (raw) => {
        const checked = checkFrameOrigin(raw);
        expect(checked, raw).toMatchObject({ ok: true });
        if (!checked.ok) return;
        expect(checked.origin).toMatch(NORMAL_ORIGIN);
        expect(checkFrameOrigin(checked.origin)).toEqual(checked);
      }),
    );
  });

  it('drops default ports and lower-cases, as browsers write Origin headers', () => {
    expect(checkFrameOrigin('HTTPS://Intranet.Example.COM:443/')).toEqual({ ok: true, origin: 'https://intranet.example.com' });
    expect(checkFrameOrigin('http://example.com:80')).toEqual({ ok: true, origin: 'http://example.com' });
    expect(checkFrameOrigin('http://example.com:443')).toEqual({ ok: true, origin: 'http://example.com:443' });
    expect(checkFrameOrigin('https://bücher.example')).toEqual({ ok: true, origin: 'https://xn--bcher-kva.example' });
  });

  it('refuses paths, queries, fragments and credentials', () => {
    fc.assert(
      fc.property(validOrigin.map((origin) => origin.replace(/\/$/, '')), fc.webSegment().filter((s) => s.length > 0), (origin, segment) => {
        expect(refusal(`${origin}/${segment}`)).toBe('a path is not allowed');
        expect(refusal(`${origin}?${segment}`)).toBe('a query or fragment is not allowed');
        expect(refusal(`${origin}#${segment}`)).toBe('a query or fragment is not allowed');
      }),
    );
    fc.assert(
      fc.property(scheme, fc.domain(), fc.webSegment(), (s, domain, user) => {
        expect(refusal(`${s}://${user}@${domain}`)).toBe('credentials are not allowed');
        expect(refusal(`${s}://${user}:secret@${domain}`)).toBe('credentials are not allowed');
      }),
    );
  });

  it('refuses other schemes, bare or misplaced wildcards, IPv6, bad ports and bad names', () => {
    const refused = [
      'ftp://example.com',
      'javascript:alert(1)',
      'example.com',
      '//example.com',
      '*',
      'https://*',
      'https://*.com',
      'https://a.*.example.com',
      'https://*example.com',
      'https://*.10.0.0.1',
      'https://[::1]',
      'https://example.com:0',
      'https://example.com:65536',
      'https://example.com:*',
      'https://-bad.example',
      'https://bad-.example',
      'https://a..example',
      'https://example.com.',
      'https://1.2.3',
      'https://999.1.1.1',
      'https://exa mple.com',
      'https://example.com;script-src *',
      'https://example.com,https://evil.example',
      "https://example.com'",
      'https://example.com\nX-Evil: 1',
      `https://${'a'.repeat(64)}.example`,
      '',
    ];
    for (const raw of refused) expect(refusal(raw), raw).toBeDefined();
  });

  it('never throws, and what it accepts is always a normal origin, whatever the input', () => {
    const anything = fc.oneof(
      fc.string({ maxLength: 400 }),
      fc.string({ unit: 'binary', maxLength: 100 }).map((rest) => `https://${rest}`),
      fc.webUrl({ withQueryParameters: true, withFragments: true }),
      fc.tuple(validOrigin, fc.string({ unit: 'binary', maxLength: 10 })).map(([origin, tail]) => origin + tail),
    );
    fc.assert(
      fc.property(anything, (raw) => {
        const checked = checkFrameOrigin(raw);
        if (checked.ok) expect(checked.origin).toMatch(NORMAL_ORIGIN);
        else expect(checked.why.length).toBeGreaterThan(0);
      }),
    );
  });

  it('checks a whole list: 20003 naming the entry, at most 50, duplicates dropped', () => {
    expect(normalizeFrameOrigins(['https://a.example/', 'https://A.example', 'http://b.example:8080'])).toEqual(['https://a.example', 'http://b.example:8080']);
    expect(normalizeFrameOrigins([])).toEqual([]);
    const tooMany = Array.from({ length: MAX_FRAME_ORIGINS + 1 }, (_, i) => `https://h${i}.example`);
    expect(() => normalizeFrameOrigins(tooMany)).toThrow(/at most 50/);
    expect(normalizeFrameOrigins(tooMany.slice(0, MAX_FRAME_ORIGINS))).toHaveLength(MAX_FRAME_ORIGINS);
    fc.assert(
      fc.property(fc.array(fc.oneof(validOrigin, fc.string({ maxLength: 50 })), { maxLength: 60 }), (list) => {
        try {
          const normal = normalizeFrameOrigins(list);
          expect(normal.length).toBeLessThanOrEqual(list.length);
          for (const origin of normal) expect(origin).toMatch(NORMAL_ORIGIN);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
          expect((error as ApiError).spec.code).toBe(20003);
          expect((error as ApiError).message).toMatch(/^frameOrigins: /);
        }
      }),
    );
  });
});

describe('frameAncestors', () => {
  it('is * for an empty list and the space-separated origins otherwise', () => {
    expect(frameAncestors({ frameOrigins: [] })).toBe('*');
    expect(frameAncestors({ frameOrigins: ['https://a.example', 'https://*.b.example:8443'] })).toBe('https://a.example https://*.b.example:8443');
  });

  it('never gives a value that could break out of the header, even from a hand-edited database', () => {
    const stored = fc.array(fc.oneof(validOrigin, fc.string({ maxLength: 60 }), fc.string({ unit: 'binary', maxLength: 30 }), fc.constantFrom('https://a.example;script-src *', 'https://a.example, https://b.example', "'unsafe-inline'", 'https://a.example\r\nSet-Cookie: x=1')), { maxLength: 20 });
    fc.assert(
      fc.property(stored, (frameOrigins) => {
        const value = frameAncestors({ frameOrigins });
        expect(value).not.toMatch(/[;,\r\n"\\\u0000-\u001f\u007f]/);
        expect(value).not.toMatch(/\s{2}|^\s|\s$/);
        if (value === '*' || value === "'none'") {
          expect(value === '*').toBe(frameOrigins.length === 0);
          return;
        }
        for (const token of value.split(' ')) expect(token).toMatch(NORMAL_ORIGIN);
      }),
    );
  });

  it("fails closed: a stored list of which nothing is valid allows no one ('none'), never *", () => {
    expect(frameAncestors({ frameOrigins: ['garbage', 'https://x.example/path'] })).toBe("'none'");
    expect(frameAncestors({ frameOrigins: ['garbage', 'https://ok.example'] })).toBe('https://ok.example');
  });

  describe('a browser Origin against the allowed list (CORS)', () => {
    const concrete = fc.tuple(fc.constantFrom('http', 'https'), fc.oneof(fc.domain(), fc.ipV4(), fc.constant('localhost')), port).map(
      ([s, h, p]) => `${s}://${h}${p === undefined ? '' : `:${p}`}`,
    );
    const normal = (origin: string) => (checkFrameOrigin(origin) as { origin: string }).origin;

    it('matches an origin listed as is, and nothing when the list is empty', () => {
      fc.assert(
        fc.property(concrete, fc.array(validOrigin, { maxLength: 5 }), (origin, others) => {
          expect(originAllowed([...normalizeFrameOrigins(others), normal(origin)], origin)).toBe(true);
          expect(originAllowed([], origin)).toBe(false);
        }),
      );
    });

    it('lets *.name cover subdomains at any depth, with the same scheme and port, never name itself', () => {
      fc.assert(
        fc.property(fc.constantFrom('http', 'https'), fc.domain(), fc.array(fc.domain().map((d) => d.split('.')[0]!), { minLength: 1, maxLength: 3 }), port, (s, domain, labels, p) => {
          const at = (host: string, scheme = s, portNumber = p) => `${scheme}://${host}${portNumber === undefined ? '' : `:${portNumber}`}`;
          const subdomain = `${labels.join('.')}.${domain}`;
          fc.pre(checkFrameOrigin(at(subdomain)).ok);
          const allowed = [normal(at(`*.${domain}`))];
          expect(originAllowed(allowed, at(subdomain))).toBe(true);
          expect(originAllowed(allowed, at(domain))).toBe(false);
          expect(originAllowed(allowed, at(subdomain, s === 'http' ? 'https' : 'http'))).toBe(false);
          expect(originAllowed(allowed, at(subdomain, s, p === 4444 ? 4445 : 4444))).toBe(false);
          expect(originAllowed(allowed, at(`${labels.join('')}${domain}`))).toBe(false);
        }),
      );
    });

    it('never matches what is not an origin: null, wildcards, paths, garbage', () => {
      fc.assert(
        fc.property(fc.oneof(fc.string({ maxLength: 80 }), fc.constantFrom('null', 'https://*.example.com', 'https://a.example.com/x')), (header) => {
          const allowed = ['https://a.example.com', 'https://*.example.com'];
          if (header.includes('*') || !checkFrameOrigin(header).ok) expect(originAllowed(allowed, header)).toBe(false);
        }),
      );
    });
  });
});
