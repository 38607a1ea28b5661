import type { ServiceApi } from './api.js';
import type { EditorBoot } from './boot.js';
import type { FrameBridge } from './bridge.js';
import type { CollaborationSession } from './collaboration.js';
import type { Shell } from './shell.js';

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
}
