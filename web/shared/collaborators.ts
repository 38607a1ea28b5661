import type { Collaborator as PageCollaborator, CollaboratorsChangedPayload } from '../../sdk/protocol.js';

/**
 * Who is in the file, one entry per user (a user with two tabs open is one collaborator), in the order they
 * arrived. Names and avatars are what each user's page got from the integrator's user callback (the boot
 * data's `user`), shared over the awareness protocol.
 */
export class CollaboratorRoster {
  private people: PageCollaborator[] = [];

  /** The current list. */
  list(): PageCollaborator[] {
    return this.people.map((person) => ({ ...person }));
  }

  /** `collaboratorsChanged` of type `snapshot`: the whole list as it is. */
  snapshot(): CollaboratorsChangedPayload {
    return { type: 'snapshot', collaborators: this.list() };
  }

  /**
   * Takes the awareness states as they are now (one per open page: session.collaborators()); answers the `collaboratorsChanged` events that describe the
   * change (`leave` before `enter`, none when the same people are there).
   */
  update(states: PageCollaborator[]): CollaboratorsChangedPayload[] {
    const next = new Map<string, PageCollaborator>();
    for (const { id, name, avatar, color } of states) if (!next.has(id)) next.set(id, { id, name, avatar, color });
    const before = new Map(this.people.map((person) => [person.id, person]));
    const leaveUsers = this.people.filter((person) => !next.has(person.id));
    const enterUsers = [...next.values()].filter((person) => !before.has(person.id));
    const stayed = this.people.filter((person) => next.has(person.id)).map((person) => next.get(person.id)!);
    const renamed = stayed.some((person) => {
      const old = before.get(person.id)!;
      return old.name !== person.name || old.avatar !== person.avatar;
    });
    this.people = [...stayed, ...enterUsers];
    const events: CollaboratorsChangedPayload[] = [];
    if (leaveUsers.length > 0) events.push({ type: 'leave', collaborators: stayed.map((person) => ({ ...person })), leaveUsers });
    if (enterUsers.length > 0) events.push({ type: 'enter', collaborators: this.list(), enterUsers });
    if (events.length === 0 && renamed) events.push(this.snapshot());
    return events;
  }
}
