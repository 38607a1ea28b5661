import { describe, expect, it } from 'vitest';
import { CollaboratorRoster } from '../../web/shared/collaborators.js';

const person = (clientId: number, id: string, name = id.toUpperCase(), avatar = '') => ({ clientId, id, name, avatar, color: '#000' });

describe('collaborator roster (collaboratorsChanged of the editor page)', () => {
  it('keeps one entry per user in arrival order and describes who came and went', () => {
    const roster = new CollaboratorRoster();
    expect(roster.snapshot()).toEqual({ type: 'snapshot', collaborators: [] });
    expect(roster.update([person(1, 'alice')])).toEqual([{ type: 'enter', collaborators: [{ id: 'alice', name: 'ALICE', avatar: '', color: '#000' }], enterUsers: [{ id: 'alice', name: 'ALICE', avatar: '', color: '#000' }] }]);
    // a second tab of alice and bob arriving: bob enters, alice is not counted twice
    const changes = roster.update([person(1, 'alice'), person(2, 'bob'), person(3, 'alice')]);
    expect(changes.map((change) => [change.type, change.enterUsers?.map((user) => user.id), change.collaborators.map((user) => user.id)])).toEqual([['enter', ['bob'], ['alice', 'bob']]]);
    // nothing changed: no event
    expect(roster.update([person(3, 'alice'), person(2, 'bob')])).toEqual([]);
    // alice leaves while carol arrives: leave (with the list without alice) before enter
    const swap = roster.update([person(2, 'bob'), person(4, 'carol')]);
    expect(swap.map((change) => [change.type, (change.leaveUsers ?? change.enterUsers)?.map((user) => user.id), change.collaborators.map((user) => user.id)])).toEqual([
      ['leave', ['alice'], ['bob']],
      ['enter', ['carol'], ['bob', 'carol']],
    ]);
    // a changed name or avatar is a new snapshot
    expect(roster.update([person(2, 'bob', 'Robert'), person(4, 'carol')])).toEqual([
      { type: 'snapshot', collaborators: [expect.objectContaining({ id: 'bob', name: 'Robert' }), expect.objectContaining({ id: 'carol' })] },
    ]);
    // the list handed out is a copy
    roster.list()[0]!.name = 'changed';
    expect(roster.list()[0]!.name).toBe('Robert');
  });
});
