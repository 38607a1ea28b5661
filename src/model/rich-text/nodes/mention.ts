import Mention from '@tiptap/extension-mention';

/** A user to mention: the integrator's user id and the name shown. */
export interface MentionedUser {
  id: string;
  label: string;
}

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    userMention: {
      /** Inserts a mention of `user` at the selection, with a fresh `guid` (its MentionAt event's id). */
      insertUserMention: (user: MentionedUser) => ReturnType;
    };
  }
}

/**
 * `mention` (docs/CONTENT-MODEL.md): `id` the integrator's user id, `label` the shown name, `guid` the mention's
 * own id. The server's record hook sends one MentionAt per new guid (src/domain/conversations/body-mentions.ts),
 * so every inserted mention gets a guid of its own; a pasted copy keeps the guid and is not announced twice.
 * The `@` dropdown that inserts one is the editor's (web/rich-text/mention-menu.ts).
 */
export const userMention = Mention.extend({
  addAttributes() {
    return {
      ...this.parent?.(),
      guid: {
        default: null,
        parseHTML: (element: { getAttribute(name: string): string | null }) => element.getAttribute('data-guid'),
        renderHTML: (attributes: Record<string, unknown>) => (attributes.guid ? { 'data-guid': String(attributes.guid) } : {}),
      },
    };
  },
  addCommands() {
    return {
      insertUserMention:
        (user) =>
        ({ commands }) =>
          commands.insertContent([
            { type: this.name, attrs: { id: user.id, label: user.label, guid: crypto.randomUUID() } },
            { type: 'text', text: ' ' },
          ]),
    };
  },
}).configure({ HTMLAttributes: { class: 'mention' } });
