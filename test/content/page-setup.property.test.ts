import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import {
  checkedPageSetup,
  DEFAULT_PAGE_SETUP,
  MARGIN_PRESETS,
  pageDimensions,
  pageNumbersShown,
  PageSetupError,
  pageSetupOf,
  readPageSetup,
  segmentsOf,
  setPageNumbersShown,
  textOf,
  writePageSetup,
  type PageSetup,
} from '../../src/model/rich-text/page-setup.js';

const slotText = fc.array(fc.oneof(fc.constantFrom('{page}', '{pages}', '{date}', ' / ', 'Page ', '{'), fc.string({ maxLength: 8 }).filter((text) => !/[\n\r]/.test(text))), { maxLength: 6 }).map((parts) => parts.join('').slice(0, 200));
const line = fc.record({ left: slotText, center: slotText, right: slotText });
const margin = fc.double({ min: 0, max: 60, noNaN: true });
const setup: fc.Arbitrary<PageSetup> = fc.record({
  size: fc.constantFrom('A4' as const, 'Letter' as const),
  orientation: fc.constantFrom('portrait' as const, 'landscape' as const),
  margins: fc.record({ top: margin, bottom: margin, left: margin, right: margin }),
  header: line,
  footer: line,
});

describe('documentPro page setup (src/model/rich-text/page-setup.ts)', () => {
  it('a slot reads as text and fields and writes back to the same text', () => {
    fc.assert(
      fc.property(slotText, (text) => {
        expect(textOf(segmentsOf(text))).toBe(text);
      }),
    );
    expect(segmentsOf('Page {page} of {pages}')).toEqual([{ text: 'Page ' }, { field: 'page' }, { text: ' of ' }, { field: 'pages' }]);
  });

  it('a checked setup written to one document reads back the same there and in a document synced from it', () => {
    fc.assert(
      fc.property(setup, (wanted) => {
        const doc = new Y.Doc();
        const checked = checkedPageSetup(readPageSetup(doc), wanted);
        writePageSetup(doc, checked);
        const other = new Y.Doc();
        Y.applyUpdate(other, Y.encodeStateAsUpdate(doc));
        expect(readPageSetup(doc)).toEqual(wanted);
        expect(readPageSetup(other)).toEqual(wanted);
      }),
    );
  });

  it('refuses bad settings by name and keeps the text area at least an inch each way', () => {
    const current = DEFAULT_PAGE_SETUP;
    expect(() => checkedPageSetup(current, { size: 'A3' })).toThrow(/size must be one of A4, Letter/);
    expect(() => checkedPageSetup(current, { orientation: 'sideways' })).toThrow(PageSetupError);
    expect(() => checkedPageSetup(current, { margins: { top: -1, bottom: 10, left: 10, right: 10 } })).toThrow(/margins.top/);
    expect(() => checkedPageSetup(current, { margins: { top: 10, bottom: 10, left: 100, right: 100 } })).toThrow(/text width/);
    expect(() => checkedPageSetup(current, { header: { left: 'a\nb', center: '', right: '' } })).toThrow(/header.left/);
    expect(() => checkedPageSetup(current, { paper: 'A4' })).toThrow(/paper is not a page setting/);
    // margins that fit a portrait page can leave too little height once the page turns
    const tall = checkedPageSetup(current, { margins: { top: 95, bottom: 95, left: 10, right: 10 } });
    expect(() => checkedPageSetup(tall, { orientation: 'landscape' })).toThrow(/text height/);
    expect(pageDimensions({ size: 'Letter', orientation: 'landscape' })).toEqual({ width: 279.4, height: 215.9 });
  });

  it('stored values no check accepts read as the default', () => {
    const doc = new Y.Doc();
    const map = pageSetupOf(doc);
    map.set('size', 'B5');
    map.set('margins', { top: 'wide' });
    map.set('header', { left: 3 });
    expect(readPageSetup(doc)).toEqual(DEFAULT_PAGE_SETUP);
    expect(DEFAULT_PAGE_SETUP.margins).toEqual(MARGIN_PRESETS.normal);
  });

  it('removeAllPageNums takes page fields out of any header and footer; addPageNum puts "n / total" back in the footer', () => {
    fc.assert(
      fc.property(setup, (wanted) => {
        const doc = new Y.Doc();
        writePageSetup(doc, wanted);
        setPageNumbersShown(doc, false);
        expect(pageNumbersShown(doc)).toBe(false);
        const after = readPageSetup(doc);
        expect(JSON.stringify([after.header, after.footer])).not.toMatch(/\{pages?\}/);
        // dates and other text stay
        expect(after.margins).toEqual(wanted.margins);
        setPageNumbersShown(doc, true);
        expect(pageNumbersShown(doc)).toBe(true);
        expect(readPageSetup(doc).footer.center).toContain('{page} / {pages}');
      }),
    );
    const fresh = new Y.Doc();
    expect(pageNumbersShown(fresh)).toBe(true);
    setPageNumbersShown(fresh, false);
    expect(readPageSetup(fresh).footer).toEqual({ left: '', center: '', right: '' });
  });
});
