import { describe, expect, it } from 'vitest';
import { spreadsheetSuite } from './support/spreadsheet.js';


const suite = spreadsheetSuite();

describe('spreadsheet editor in a browser', () => {
  it('two users edit one spreadsheet and converge; the values API reads what they typed', async () => {
    const { svc } = suite;
    svc.integrator.addUser({ id: 'user-2', name: 'Bob', token: 'token-2' });
    await suite.create('sheet-1');
    const alice = await suite.open('sheet-1');
    const bob = await suite.open('sheet-1', 'token-2');
    const [a, b] = [alice.sheet, bob.sheet];
    await a.type('A1', 'Hello');
    await b.type('B2', '42');
    await a.type('A2', 'from Alice');
    await expect.poll(() => b.cell(0, 0).textContent()).toBe('Hello');
    await expect.poll(() => a.cell(1, 1).textContent()).toBe('42');
    await expect.poll(() => b.cell(1, 0).textContent()).toBe('from Alice');
    // Bob sees where Alice's selection is, with her name
    await expect.poll(() => b.frame.locator('.svc-grid-highlight-label').allTextContents()).toEqual(['Test User']);
    await alice.page.screenshot({ path: '/tmp/shots/spreadsheet-a.png' });
    await expect
      .poll(async () => (await svc.call('GET', '/sdk/v2/api/files/sheet-1/sheets/values', { query: { range: 'Sheet1!A1:B2' } })).body.data?.values)
      .toEqual([
        ['Hello'],
        ['from Alice', 42],
      ]);
    expect([...alice.errors, ...bob.errors]).toEqual([]);
    await alice.close();
    await bob.close();
  });
});
