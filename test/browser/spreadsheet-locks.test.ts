import { describe, expect, it } from 'vitest';
import { DEFAULT_USER } from '../support/integrator.js';
import { spreadsheetSuite } from './support/spreadsheet.js';

const suite = spreadsheetSuite();

describe('locks in the spreadsheet editor', () => {
  it('Alice protects B2:C4 for everyone but herself: Bob sees it hatched, his typing there is refused live, his A1 lands', { timeout: 180_000 }, async () => {
    const { svc } = suite;
    svc.integrator.addUser({ id: 'bob', name: 'Bob', token: 'bob-token' });
    svc.integrator.addFile({ id: 'locks-1', type: 'spreadsheet', grants: { [DEFAULT_USER.id]: { readable: true, editable: true, manageable: true }, bob: { readable: true, editable: true, manageable: false } } });
    await suite.create('locks-1');
    const values = '/sdk/v2/api/files/locks-1/sheets/values';
    const read = async (range: string) => (await svc.call('GET', values, { query: { range } })).body.data?.values;
    expect((await svc.call('POST', values, { body: { range: 'A1:C4', resource: { values: [['Budget', 'Q1', 'Q2'], ['Rent', 1200, 1200], ['Salaries', 8000, 8200], ['Total', '=SUM(B2:B3)', '=SUM(C2:C3)']] } } })).status).toBe(200);

    const alice = await suite.open('locks-1');
    const bob = await suite.open('locks-1', 'bob-token');
    await expect.poll(() => alice.sheet.cell(1, 0).textContent(), { timeout: 20_000 }).toBe('Rent');

    // Alice selects B2:C4, right-clicks, Protect range…, and protects it with nobody else ticked
    await alice.sheet.go('B2:C4');
    await alice.sheet.cell(2, 1).click({ button: 'right' });
    await alice.sheet.frame.getByRole('menu', { name: 'Cell actions' }).getByRole('menuitem', { name: 'Protect range…' }).click();
    const dialog = alice.sheet.frame.getByRole('dialog', { name: 'Protect B2:C4' });
    await expect.poll(() => dialog.getByRole('checkbox', { name: 'Bob' }).count(), { timeout: 20_000 }).toBe(1);
    await alice.page.screenshot({ path: '/tmp/shots-locks/protect-dialog.png' });
    await dialog.getByRole('button', { name: 'Protect' }).click();
    const locks = async () => (await svc.call('GET', '/sdk/v2/api/files/locks-1/sheets/locks')).body.data?.locks;
    await expect.poll(async () => (await locks())?.[0]?.locks?.[0]?.ranges, { timeout: 20_000 }).toEqual(['B2:C4']);

    // Bob's editor draws the cells hatched, live; Alice's with the lock mark only
    await expect.poll(() => bob.sheet.cell(2, 1).getAttribute('class'), { timeout: 20_000 }).toContain('svc-sheet-locked');
    expect(await alice.sheet.cell(2, 1).getAttribute('class')).toContain('svc-sheet-protected');

    // Bob types into C3: refused with a notice, nothing written; his A1 lands
    await bob.sheet.go('C3');
    await expect.poll(() => bob.sheet.grid.evaluate((grid) => grid === document.activeElement || grid.contains(document.activeElement)), { timeout: 20_000 }).toBe(true);
    await bob.page.keyboard.type('999');
    await bob.page.keyboard.press('Enter');
    await expect.poll(() => bob.sheet.frame.getByText('This cell is protected: you may not change it.').isVisible(), { timeout: 20_000 }).toBe(true);
    await bob.page.screenshot({ path: 'docs/images/spreadsheet-locks.png' });
    await bob.sheet.type('A1', 'Budget 2027');
    await expect.poll(() => read('A1:C3'), { timeout: 20_000 }).toEqual([['Budget 2027', 'Q1', 'Q2'], ['Rent', 1200, 1200], ['Salaries', 8000, 8200]]);
    // the session was not ended: Bob's editor still edits outside the lock
    await bob.sheet.type('D1', 'note');
    await expect.poll(() => read('D1'), { timeout: 20_000 }).toEqual([['note']]);

    // Alice, the locker, still edits inside it
    await alice.sheet.type('C3', '8300');
    await expect.poll(() => read('C3'), { timeout: 20_000 }).toEqual([[8300]]);
    expect(alice.errors).toEqual([]);
    expect(bob.errors).toEqual([]);
    await alice.close();
    await bob.close();
  });
});
