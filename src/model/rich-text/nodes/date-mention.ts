import { InputRule, mergeAttributes, Node } from '@tiptap/core';

declare module '@tiptap/core' {
  interface Commands<ReturnType> {
    dateMention: {
      /** Inserts a date mention of `date` (`YYYY-MM-DD`) whose position id is `guid`. */
      insertDateMention: (date: string, guid: string) => ReturnType;
    };
  }
}

/**
 * `YYYY-MM-DD` that names a real calendar day: the `date` of a `dateMention` node. One rule for the editor and
 * the service, which reads date mentions out of the body (docs/CONVERSATIONS.md).
 */
export function isCalendarDate(date: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return false;
  const parsed = new Date(`${date}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date);
}

export interface DateMentionOptions {
  /** a date was typed as `@YYYY-MM-DD ` (the editor registers it with the service) */
  typed(date: string, guid: string): void;
}

/**
 * `dateMention` (docs/CONTENT-MODEL.md): an inline atom with `date` (`YYYY-MM-DD`) and `guid`, the
 * `positionId` of the file's date mention (POST date-mentions, which sends the DateMention event). Plain text
 * reads the date.
 */
export const DateMention = Node.create<DateMentionOptions>({
  name: 'dateMention',
  group: 'inline',
  inline: true,
  atom: true,
  selectable: false,

  addOptions() {
    return { typed: () => undefined };
  },

  addAttributes() {
    return {
      date: { default: null, parseHTML: (element) => element.getAttribute('data-date'), renderHTML: (attrs) => (attrs.date ? { 'data-date': String(attrs.date) } : {}) },
      guid: { default: null, parseHTML: (element) => element.getAttribute('data-guid'), renderHTML: (attrs) => (attrs.guid ? { 'data-guid': String(attrs.guid) } : {}) },
    };
  },

  parseHTML() {
    return [{ tag: 'time[data-type="date-mention"]' }];
  },

  renderHTML({ node, HTMLAttributes }) {
    return ['time', mergeAttributes({ 'data-type': 'date-mention', class: 'date-mention', datetime: String(node.attrs.date ?? '') }, HTMLAttributes), String(node.attrs.date ?? '')];
  },

  renderText({ node }) {
    return String(node.attrs.date ?? '');
  },

  renderMarkdown: (node) => String(node.attrs?.date ?? ''),

  addCommands() {
    return {
      insertDateMention:
        (date, guid) =>
        ({ commands }) =>
          isCalendarDate(date) && commands.insertContent([{ type: this.name, attrs: { date, guid } }, { type: 'text', text: ' ' }]),
    };
  },

  addInputRules() {
    return [
      new InputRule({
        find: /@(\d{4}-\d{2}-\d{2})\s$/,
        handler: ({ state, range, match }) => {
          const date = match[1]!;
          if (!isCalendarDate(date)) return null;
          const guid = crypto.randomUUID();
          state.tr.replaceWith(range.from, range.to, [this.type.create({ date, guid }), state.schema.text(' ')]);
          this.options.typed(date, guid);
        },
      }),
    ];
  },
});
