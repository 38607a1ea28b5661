/**
 * Word's tracked changes (`w:ins` / `w:del` around runs, with `w:author` and `w:date`) kept as the model's
 * suggestions (src/model/rich-text/marks/suggestion.ts) when a docx is imported. mammoth reads an insertion's
 * runs as plain text and drops a deletion's, so before mammoth reads the file each revision's runs are put
 * between marker runs of private-use characters (`\uE005n\uE006` … `\uE007n\uE006`, n the revision's number
 * here) and a deletion's `w:delText` becomes text; `suggested` turns the markers in mammoth's HTML into the
 * `<ins>` / `<del>` the model's parse rules read. Revisions of paragraph marks and of formatting (`w:ins` /
 * `w:del` inside properties, `w:rPrChange`) are not read: the text shows as Word would with them accepted.
 */

const OPEN = '\uE005';
const NUMBER_END = '\uE006';
const CLOSE = '\uE007';
const MARKERS = /[\uE005-\uE007]/g;

interface Revision {
  kind: 'insertion' | 'deletion';
  author: string;
  date: string;
}

/** An XML attribute's value, entities left as they are (the HTML they go to reads them the same). */
function attribute(tag: string, name: string): string {
  return new RegExp(`\\b${name}="([^"]*)"`).exec(tag)?.[1] ?? '';
}

const markerRun = (text: string) => `<w:r><w:t xml:space="preserve">${text}</w:t></w:r>`;

/** One import's revisions, numbered (a fresh one per document). */
export class WordRevisions {
  private readonly revisions: Revision[] = [];

  /** document.xml with its revisions marked for mammoth; the same text when it has none. */
  marked(xml: string): string {
    if (!/<w:(ins|del)\b[^>]*[^/]>/.test(xml)) return xml;
    const stack: number[] = [];
    const rewritten = xml
      .replace(MARKERS, '')
      // an element that is not self-closing wraps runs; `<w:ins/>` in properties marks a paragraph mark
      .replace(/<w:(ins|del)\b([^>]*[^/])?>|<\/w:(ins|del)>|<(\/?)w:delText\b([^>]*)>/g, (whole, open?: string, attrs?: string, close?: string, slash?: string, textAttrs?: string) => {
        if (open) {
          const number = this.revisions.push({ kind: open === 'ins' ? 'insertion' : 'deletion', author: attribute(attrs ?? '', 'w:author'), date: attribute(attrs ?? '', 'w:date') }) - 1;
          stack.push(number);
          return markerRun(`${OPEN}${number}${NUMBER_END}`);
        }
        if (close) {
          const number = stack.pop();
          return number === undefined ? '' : markerRun(`${CLOSE}${number}${NUMBER_END}`);
        }
        return slash ? '</w:t>' : `<w:t${textAttrs ?? ''}>`;
      });
    return rewritten;
  }

  /** mammoth's HTML with the markers turned into suggestion elements. */
  suggested(html: string): string {
    // without revisions the text may still hold marker characters of its own: they go too
    return html
      .replace(new RegExp(`([${OPEN}${CLOSE}])(\\d+)${NUMBER_END}`, 'g'), (_whole, marker: string, number: string) => {
        const revision = this.revisions[Number(number)];
        if (!revision) return '';
        const tag = revision.kind === 'insertion' ? 'ins' : 'del';
        if (marker === CLOSE) return `</${tag}>`;
        const date = Number.isNaN(Date.parse(revision.date)) ? '' : ` data-date="${new Date(revision.date).toISOString()}"`;
        return `<${tag} data-suggestion-id="word-${number}" data-author-name="${revision.author.replace(/"/g, '&quot;')}"${date}>`;
      })
      .replace(MARKERS, '');
  }
}
