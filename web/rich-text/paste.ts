import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';

/** A Word list paragraph: `mso-list:l0 level2 lfo1` (the list it belongs to and its depth). */
const MSO_LIST = /mso-list:\s*(l\d+)\s+level(\d+)/i;
/** Word's generated bullet or number ("1.", "a)", "·"), kept in a span marked `mso-list:Ignore`. */
const IGNORED_MARKER = /mso-list:\s*ignore/i;
const NUMBERED = /^\s*\(?([0-9]+|[a-z]{1,3}|[ivxlcdm]+)[.)]/i;

interface ListParagraph {
  paragraph: HTMLElement;
  /** Word's list id (`l0`): two lists next to each other stay two lists */
  list: string;
  level: number;
  ordered: boolean;
}

function listParagraph(element: Element): ListParagraph | undefined {
  if (element.tagName !== 'P') return undefined;
  const match = MSO_LIST.exec(element.getAttribute('style') ?? '');
  if (!match) return undefined;
  let marker = '';
  for (const span of Array.from(element.querySelectorAll('span'))) {
    if (IGNORED_MARKER.test(span.getAttribute('style') ?? '')) {
      marker = span.textContent ?? '';
      span.remove();
      break;
    }
  }
  return { paragraph: element as HTMLElement, list: match[1]!, level: Math.max(1, Number(match[2])), ordered: NUMBERED.test(marker) };
}

/** Replaces a run of Word list paragraphs by real nested `<ul>`/`<ol>` lists. */
function buildList(document: Document, run: ListParagraph[]): HTMLElement {
  const root = document.createElement(run[0]!.ordered ? 'ol' : 'ul');
  const stack: Array<{ list: HTMLElement; level: number }> = [{ list: root, level: run[0]!.level }];
  for (const item of run) {
    while (stack.length > 1 && item.level < stack[stack.length - 1]!.level) stack.pop();
    let top = stack[stack.length - 1]!;
    if (item.level > top.level) {
      const parentItem = top.list.lastElementChild ?? top.list.appendChild(document.createElement('li'));
      const nested = document.createElement(item.ordered ? 'ol' : 'ul');
      parentItem.appendChild(nested);
      top = { list: nested, level: item.level };
      stack.push(top);
    }
    const li = document.createElement('li');
    const p = document.createElement('p');
    p.append(...Array.from(item.paragraph.childNodes));
    li.appendChild(p);
    top.list.appendChild(li);
  }
  return root;
}

/**
 * Word's clipboard HTML (and Outlook's, OneNote's) writes lists as paragraphs styled `mso-list`, with the
 * bullet as text. Headings, tables, bold, italic and links already parse; this turns those paragraphs into
 * real lists before ProseMirror reads the HTML, so a pasted list stays a list. Other HTML passes unchanged.
 */
export function wordListsToHtmlLists(html: string): string {
  if (!/mso-list/i.test(html)) return html;
  const document = new DOMParser().parseFromString(html, 'text/html');
  const parents = new Set<Element>();
  for (const p of Array.from(document.body.querySelectorAll('p'))) if (MSO_LIST.test(p.getAttribute('style') ?? '') && p.parentElement) parents.add(p.parentElement);
  for (const parent of parents) {
    let run: ListParagraph[] = [];
    const flush = () => {
      if (run.length === 0) return;
      run[0]!.paragraph.before(buildList(document, run));
      for (const item of run) item.paragraph.remove();
      run = [];
    };
    for (const child of Array.from(parent.children)) {
      const item = listParagraph(child);
      if (!item || item.list !== run[0]?.list) flush();
      if (item) run.push(item);
    }
    flush();
  }
  return document.body.innerHTML;
}

/** Pasting from Word keeps its lists (see wordListsToHtmlLists). */
export const wordPaste = Extension.create({
  name: 'wordPaste',
  addProseMirrorPlugins() {
    return [new Plugin({ key: new PluginKey('wordPaste'), props: { transformPastedHTML: wordListsToHtmlLists } })];
  },
});
