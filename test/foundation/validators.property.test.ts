import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { normalizeEndpointUrl } from '../../src/domain/apps/endpoint-url.js';
import { FILE_ID_PATTERN } from '../../src/domain/files/file-service.js';
import { ApiError } from '../../src/errors.js';
import { OutboundPolicy } from '../../src/net/outbound-policy.js';
import { testDatabases } from '../support/databases.js';
import { startService, type TestService } from '../support/service.js';

describe('endpoint URL rules', () => {
  const outbound = new OutboundPolicy({ allowPrivateNetworks: true });
  it('accepts every http(s) URL without credentials, query or fragment, idempotently and without trailing slash', () => {
    fc.assert(
      fc.property(fc.webUrl({ validSchemes: ['http', 'https'] }), (url) => {
        const normalized = normalizeEndpointUrl(url, outbound);
        expect(normalized).toMatch(/^https?:\/\//);
        expect(normalized.endsWith('/')).toBe(false);
        expect(normalizeEndpointUrl(normalized, outbound)).toBe(normalized);
      }),
    );
  });

  it('rejects every other scheme with 10001', () => {
    const scheme = fc.stringMatching(/^[a-z][a-z0-9+.-]{0,8}$/).filter((s) => s !== 'http' && s !== 'https');
    fc.assert(
      fc.property(scheme, fc.domain(), (s, host) => {
        expect(() => normalizeEndpointUrl(`${s}://${host}/`, outbound)).toThrow(ApiError);
        try {
          normalizeEndpointUrl(`${s}://${host}/`, outbound);
        } catch (error) {
          expect((error as ApiError).spec.code).toBe(10001);
        }
      }),
    );
  });

  it('never throws anything but ApiError, whatever the input', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 3000 }), (raw) => {
        try {
          normalizeEndpointUrl(raw, outbound);
        } catch (error) {
          expect(error).toBeInstanceOf(ApiError);
        }
      }),
    );
  });
});

describe('fileId rule', () => {
  const pattern = new RegExp(FILE_ID_PATTERN);
  it('accepts 1-64 safe characters, including non-ASCII', () => {
    const safe = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 64 }).filter((s) => !/[\s\x00-\x1f\x7f-\x9f/\\?#%]/.test(s) && s.length <= 64);
    fc.assert(
      fc.property(safe, (id) => {
        expect(pattern.test(id)).toBe(true);
      }),
    );
  });
  it('rejects separators, white space and control characters anywhere', () => {
    const bad = fc.tuple(fc.string({ maxLength: 20 }), fc.constantFrom('/', '\\', '?', '#', '%', ' ', '\n', '\t', '\u0000', '\u0080', '\u0085', '\u009f'), fc.string({ maxLength: 20 }));
    fc.assert(
      fc.property(bad, ([a, c, b]) => {
        expect(pattern.test(`${a}${c}${b}`)).toBe(false);
      }),
    );
  });
});

const [sqlite] = testDatabases();
describe('hostile signatures', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startService(sqlite!, { appQps: 1_000_000 });
  });
  afterAll(async () => svc.close());

  it('answer 401/403 in the envelope, never a 500, for any header value', async () => {
    const headerSafe = fc.string({ unit: fc.constantFrom(...'abcXYZ019-_.=+/ {}":,'.split('')), maxLength: 300 });
    const jwtLike = fc.tuple(fc.base64String(), fc.base64String(), fc.base64String()).map(([a, b, c]) => `${a}.${b}.${c}`);
    await fc.assert(
      fc.asyncProperty(fc.oneof(headerSafe, jwtLike), async (signature) => {
        const response = await svc.call('POST', '/sdk/v2/api/files', { signature: signature || 'x', body: { type: 'document', fileId: 'f' } });
        expect([401, 403]).toContain(response.status);
        expect(typeof response.body.status).toBe('number');
        expect(response.body.status).not.toBe(0);
      }),
      { numRuns: 150 },
    );
  });
});
