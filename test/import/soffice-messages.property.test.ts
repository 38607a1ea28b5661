import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sofficeMessages } from '../../src/domain/conversion/libreoffice.js';

const JAVALDX = 'Warning: failed to launch javaldx - java may not function correctly';

describe('sofficeMessages: what of soffice\'s stderr reaches an error message', () => {
  it('keeps the reasons, each once, without launcher noise or the temporary folder', () => {
    const stderr = `${JAVALDX}\nError: no export filter for /tmp/svc-soffice-Ab12/out/input.pptx found, aborting.\nError: no export filter\n${JAVALDX}\nError: no export filter for /tmp/svc-soffice-Ab12/out/input.pptx found, aborting.\n`;
    expect(sofficeMessages(stderr)).toBe('Error: no export filter for input.pptx found, aborting.; Error: no export filter');
    expect(sofficeMessages(`${JAVALDX}\n`)).toBe('');
    expect(sofficeMessages('Error: source file could not be loaded\r\n')).toBe('Error: source file could not be loaded');
  });

  it('never shows a directory of the server, the javaldx warning or more than 300 characters, whatever soffice says', () => {
    const segment = fc.stringMatching(/^[\w.-]{1,12}$/);
    // soffice names files: the input, the output it could not write
    const serverPath = fc
      .tuple(fc.constantFrom('/tmp/svc-soffice-', 'C:\\Temp\\svc-soffice-'), fc.array(segment, { minLength: 1, maxLength: 4 }), segment)
      .map(([root, folders, file]) => {
        const separator = root.startsWith('/') ? '/' : '\\';
        return root + folders.join(separator) + separator + file;
      });
    const line = fc.oneof(
      fc.constant(JAVALDX),
      fc.string({ maxLength: 80 }).filter((text) => !/svc-soffice-/.test(text)),
      fc.tuple(fc.string({ maxLength: 30 }), serverPath, fc.string({ maxLength: 30 })).map(([before, where, after]) => `${before} ${where}${/^\s/.test(after) ? '' : ' '}${after}`),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const message = sofficeMessages(lines.join('\n'));
        expect(message).not.toContain('svc-soffice-');
        expect(message).not.toContain('javaldx');
        expect(message.length).toBeLessThanOrEqual(300);
      }),
    );
  });
});
