import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isViewSignature, viewSignature, type ViewGrant } from '../../src/domain/preview/view-link.js';

const id = fc.string({ minLength: 1, maxLength: 64 });
const grant: fc.Arbitrary<ViewGrant> = fc.record({ appId: id, fileId: id, taskId: id, expiresAt: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }) });
const secret = fc.string({ minLength: 16, maxLength: 64 });

describe("a viewer's link signature", () => {
  it('is accepted for the grant it was made for, with that secret', () => {
    fc.assert(
      fc.property(grant, secret, (made, key) => {
        expect(isViewSignature(key, made, viewSignature(key, made))).toBe(true);
      }),
    );
  });

  it('is refused once any field of the grant, or the secret, differs', () => {
    fc.assert(
      fc.property(grant, secret, fc.constantFrom<keyof ViewGrant>('appId', 'fileId', 'taskId', 'expiresAt'), id, secret, (made, key, field, other, otherKey) => {
        const signature = viewSignature(key, made);
        const changed: ViewGrant = { ...made, [field]: field === 'expiresAt' ? made.expiresAt + 1 : other };
        if (changed[field] !== made[field]) expect(isViewSignature(key, changed, signature)).toBe(false);
        if (otherKey !== key) expect(isViewSignature(otherKey, made, signature)).toBe(false);
      }),
    );
  });

  it('keeps the fields apart: two different grants never share a signature (text moved between fields included)', () => {
    fc.assert(
      fc.property(secret, grant, grant, fc.nat({ max: 8 }), (key, one, other, cut) => {
        // also the same text split at another place: appId + fileId equal, the boundary moved
        const joined = one.appId + one.fileId;
        const moved: ViewGrant = { ...one, appId: joined.slice(0, cut), fileId: joined.slice(cut) };
        for (const two of [other, moved]) {
          const same = two.appId === one.appId && two.fileId === one.fileId && two.taskId === one.taskId && two.expiresAt === one.expiresAt;
          expect(viewSignature(key, one) === viewSignature(key, two)).toBe(same);
        }
      }),
    );
  });

  it('refuses anything that is not a signature, without throwing', () => {
    fc.assert(fc.property(grant, secret, fc.string({ maxLength: 100 }), (made, key, forged) => {
      expect(isViewSignature(key, made, forged)).toBe(forged === viewSignature(key, made));
    }));
  });
});
