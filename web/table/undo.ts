/** One change a user made that can be taken back and made again (each direction is calls of the table API). */
export interface UndoableChange {
  undo(): Promise<void>;
  redo(): Promise<void>;
}

/**
 * A row or column as the history names it. Undoing a deletion creates the row or column anew under a new
 * guid; every change recorded about it holds this same reference, so later undo and redo steps reach the new
 * one.
 */
export interface Ref {
  guid: string;
}

/** Changes kept per page; the oldest is forgotten first. */
const MAX_CHANGES = 100;

/**
 * The user's own changes in this page, newest last: undo takes back the newest, redo makes again what undo
 * took back, and a new change forgets what was undone. Steps run one after the other; a step the service
 * refuses (someone deleted the row meanwhile, say) is dropped from the history and its error thrown.
 */
export class UndoHistory {
  private readonly done: UndoableChange[] = [];
  private undone: UndoableChange[] = [];
  private queue: Promise<void> = Promise.resolve();
  private readonly refs = new Map<string, Ref>();

  constructor(private readonly changed: () => void) {}

  get canUndo(): boolean {
    return this.done.length > 0;
  }

  get canRedo(): boolean {
    return this.undone.length > 0;
  }

  /** The history's reference to a row or column guid (one per guid, followed when it is re-created). */
  ref(guid: string): Ref {
    let ref = this.refs.get(guid);
    if (!ref) this.refs.set(guid, (ref = { guid }));
    return ref;
  }

  /** Points a reference at the guid its row or column got when re-created. */
  moved(ref: Ref, guid: string): void {
    this.refs.delete(ref.guid);
    ref.guid = guid;
    this.refs.set(guid, ref);
  }

  record(change: UndoableChange): void {
    this.done.push(change);
    if (this.done.length > MAX_CHANGES) this.done.shift();
    this.undone = [];
    this.changed();
  }

  undo(): Promise<void> {
    return this.step(this.done, this.undone, (change) => change.undo());
  }

  redo(): Promise<void> {
    return this.step(this.undone, this.done, (change) => change.redo());
  }

  private step(from: UndoableChange[], to: UndoableChange[], run: (change: UndoableChange) => Promise<void>): Promise<void> {
    const next = this.queue.then(async () => {
      const change = from.pop();
      if (!change) return;
      try {
        await run(change);
        to.push(change);
      } finally {
        this.changed();
      }
    });
    this.queue = next.catch(() => undefined);
    return next;
  }
}
