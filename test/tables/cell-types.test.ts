import { describe, expect, it } from 'vitest';
import { editableText, parseTyped, refusal, shownText } from '../../web/table/cell-types.js';
import type { Column } from '../../web/table/model.js';

const column = (type: string, props: Record<string, unknown> = {}): Column => ({ guid: `col-${type}`, name: type, type, props, isPrimary: false });
const noLinks = (_table: string, guid: string) => `label of ${guid}`;

/** The table editor's cell logic (web/table/cell-types.ts), which decides with the service's own field types. */
describe('table editor cells', () => {
  it('shows each type as text', () => {
    expect(shownText(1.5, column('Number', { precision: 2 }), noLinks)).toBe('1.50');
    expect(shownText(0.07, column('Percent'), noLinks)).toBe('7%');
    expect(shownText(0.125, column('Percent', { precision: 1 }), noLinks)).toBe('12.5%');
    expect(shownText('2024-05-01T06:30:00.000Z', column('Date'), noLinks)).toBe('2024-05-01');
    expect(shownText('2024-05-01T06:30:00.000Z', column('Date', { format: 'datetime' }), noLinks)).toBe('2024-05-01 06:30');
    expect(shownText(true, column('CheckBox', { type: 'close' }), noLinks)).toBe('✗');
    expect(shownText(2, column('Rate', { count: 5, icon: 'flame' }), noLinks)).toBe('🔥🔥');
    expect(shownText(['a', 'b'], column('MultipleChoice'), noLinks)).toBe('a, b');
    expect(shownText(['Europe', 'France'], column('Cascade'), noLinks)).toBe('Europe / France');
    expect(shownText(['row1'], column('Link', { tableGuid: 'tbl' }), noLinks)).toBe('label of row1');
    expect(shownText('line 1\nline 2', column('LongText'), noLinks)).toBe('line 1 ⏎ line 2');
    // a value stored under an earlier type is shown as it is
    expect(shownText('twelve', column('Number'), noLinks)).toBe('twelve');
    expect(shownText(undefined, column('Number'), noLinks)).toBe('');
  });

  it('reads typed text, and refuses what the table API would refuse', () => {
    expect(parseTyped(column('Number'), ' 12.5 ', 'en-US')).toEqual({ value: 12.5 });
    expect(parseTyped(column('Number'), ' 1.234,5 ', 'de-DE')).toEqual({ value: 1234.5 });
    expect(parseTyped(column('Number'), 'lots', 'en-US')).toEqual({ refused: true });
    expect(parseTyped(column('Percent'), '12.5%', 'en-US')).toEqual({ value: 0.125 });
    expect(parseTyped(column('Number'), '', 'en-US')).toEqual({ value: null });
    expect(parseTyped(column('Rate'), 'x', 'en-US')).toEqual({ refused: true });
    expect(parseTyped(column('Date'), '2026/3/14', 'en-US')).toEqual({ value: '2026-03-14' });
    expect(refusal(column('Rate', { count: 3, icon: 'star' }), 4)).toBe('must be an integer from 0 to 3, got the number 4');
    expect(refusal(column('SingleChoice', { options: [{ name: 'Open' }] }), 'Maybe')).toMatch(/unknown option "Maybe"/);
    expect(refusal(column('SingleChoice', { options: [{ name: 'Open' }] }), 'Open')).toBeUndefined();
    expect(refusal(column('Date', { format: 'date' }), '2024-02-30')).toMatch(/ISO 8601/);
    expect(refusal(column('AutoNumber'), 3)).toMatch(/cannot be written/);
    expect(refusal(column('Number'), null)).toBeUndefined();
  });

  it('starts editors from the value as it was typed', () => {
    expect(editableText(column('Percent'), 0.125)).toBe('12.5%');
    expect(editableText(column('Date'), '2024-05-01T06:30:00.000Z')).toBe('2024-05-01');
    expect(editableText(column('LongText'), 'a\nb')).toBe('a\nb');
  });
});
