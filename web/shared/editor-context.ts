import type { ServiceApi } from './api.js';
import type { EditorBoot } from './boot.js';
import type { FrameBridge } from './bridge.js';
import type { CollaborationSession } from './collaboration.js';
import type { Shell } from './shell.js';
import type { FirstScreen } from '../../src/model/sheets/first-screen.js';

/** The service's first screen of a file, asked for before the session opens (the spreadsheet's, or undefined). */
export type FirstScreenAnswer = FirstScreen | undefined;

/** What every editor module is mounted with (web/main.ts builds it). */
export interface EditorContext {
  boot: EditorBoot;
  bridge: FrameBridge;
  api: ServiceApi;
  session: CollaborationSession;
  shell: Shell;
}

/**
 * An editor module (`web/<kind>/index.ts`): mounts the editor of its kind into the shell and resolves with
 * what it mounted (document and documentPro: their RichTextEditor, whose Tiptap editor panels use).
 */
export interface EditorModule {
  mount(context: EditorContext): Promise<unknown>;
  /**
   * Optional: draws a read-only first screen from `answer` while the document syncs (the spreadsheet's,
   * docs/BROWSER.md "First screen"); resolves true once it is on screen, false when it was not drawn. `mount`
   * replaces it.
   */
  showFirstScreen?(context: EditorContext, answer: Promise<FirstScreenAnswer>): Promise<boolean>;
}
