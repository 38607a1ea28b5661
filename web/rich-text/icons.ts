/**
 * The rich-text toolbar's icons: inline SVG drawn on a 24-px grid in the current text colour (so pressed,
 * disabled and hover states colour them), for the tools a letter does not name better. Bold, italic,
 * underline and strike-through keep their letters, as in every office suite, drawn as SVG text.
 */
const STROKES: Readonly<Record<string, string>> = {
  undo: 'M9 14 4 9l5-5M4 9h10.5a5.5 5.5 0 0 1 0 11H11',
  redo: 'm15 14 5-5-5-5M20 9H9.5a5.5 5.5 0 0 0 0 11H13',
  code: 'm8 7-5 5 5 5M16 7l5 5-5 5',
  textColor: 'M6 16 12 3l6 13M8.4 11h7.2',
  highlight: 'M14.5 4.5l5 5-8 8H6.5v-5zM3 20.5h7',
  clearFormatting: 'M6 5h12M12.5 5 10 19M14 14l6 6M20 14l-6 6',
  bulletList: 'M9 6h12M9 12h12M9 18h12M4 6h.01M4 12h.01M4 18h.01',
  orderedList: 'M10 6h11M10 12h11M10 18h11M4 4.5h1.5V9M4 9h3M4 14.5c.6-.8 2.8-.8 2.8.6 0 1-2.8 2.2-2.8 3.4h3',
  taskList: 'M3 4h6v6H3zM3.5 16.5l2 2 3.5-4M13 7h8M13 17h8',
  blockquote: 'M4 18c3 0 5-2 5-6V6H4v6h5M15 18c3 0 5-2 5-6V6h-5v6h5',
  callout: 'M12 3a9 9 0 1 0 0 18 9 9 0 0 0 0-18zM12 11v6M12 7.5h.01',
  codeBlock: 'M3.5 4h17v16h-17zM10 9.5l-2.5 2.5 2.5 2.5M14 9.5l2.5 2.5-2.5 2.5',
  horizontalRule: 'M3 12h18M7 7.5h10M7 16.5h10',
  link: 'M10 14a4.5 4.5 0 0 0 6.4 0l3-3a4.5 4.5 0 0 0-6.4-6.4l-1 1M14 10a4.5 4.5 0 0 0-6.4 0l-3 3a4.5 4.5 0 0 0 6.4 6.4l1-1',
  unlink: 'M14.5 6.5 16 5a4.5 4.5 0 0 1 6.4 6.4l-1.5 1.5M9.5 17.5 8 19a4.5 4.5 0 0 1-6.4-6.4L3 11M8 3v3M3 8h3M16 21v-3M21 16h-3',
  image: 'M3 5h18v14H3zM21 15.5l-5-5L6 19M8.5 8a1.5 1.5 0 1 0 0 3 1.5 1.5 0 0 0 0-3z',
  date: 'M4 6h16v14H4zM4 10.5h16M8.5 3.5v5M15.5 3.5v5M8 14.5h2M14 14.5h2',
  pageBreak: 'M5 3v5.5h14V3M5 21v-5.5h14V21M2.5 12h3M9 12h6M18.5 12h3',
  footnote: 'M3 8h11M3 12h11M3 20h8M17 4.5l2-1.5v6M16.5 9h4M3 16.5h18',
  table: 'M3.5 4.5h17v15h-17zM3.5 9.5h17M3.5 14.5h17M9.5 4.5v15M14.5 4.5v15',
  addRow: 'M3.5 3.5h17v9h-17zM3.5 8h17M12 15v6M9 18h6',
  addColumn: 'M3.5 3.5h9v17h-9zM8 3.5v17M15.5 12h6M18.5 9v6',
  deleteTable: 'M3.5 4.5h17v10h-17zM3.5 9.5h17M12 4.5v10M9 17l4 4M13 17l-4 4',
  alignLeft: 'M3 5h18M3 9.5h12M3 14h18M3 18.5h12',
  alignCenter: 'M3 5h18M6 9.5h12M3 14h18M6 18.5h12',
  alignRight: 'M3 5h18M9 9.5h12M3 14h18M9 18.5h12',
  alignJustify: 'M3 5h18M3 9.5h18M3 14h18M3 18.5h18',
  indent: 'M3 4.5h18M11 9.5h10M11 14.5h10M3 19.5h18M3 9l4 3-4 3',
  outdent: 'M3 4.5h18M11 9.5h10M11 14.5h10M3 19.5h18M7 9l-4 3 4 3',
  lineHeight: 'M11 6h10M11 12h10M11 18h10M5 4v16M2.5 6.5 5 4l2.5 2.5M2.5 17.5 5 20l2.5-2.5',
  openLink: 'M14 4h6v6M20 4l-9 9M18 14v6H4V6h6',
  edit: 'M4 20h4L19 9l-4-4L4 16zM13.5 6.5l4 4',
  /** a pen over a struck line: changes proposed, not made */
  suggesting: 'M4 17h4L17 8l-3-3-9 9zM12 7l3 3M3 21h8M14 21h7',
  /** a sheet of paper with its margins */
  pageSetup: 'M5 3h14v18H5zM8.5 6.5h7M8.5 17.5h7M8.5 6.5v11M15.5 6.5v11',
};

/** Letters drawn as SVG text, with how each is set. */
const LETTERS: Readonly<Record<string, { text: string; style: string }>> = {
  bold: { text: 'B', style: 'font-weight:700' },
  italic: { text: 'I', style: 'font-style:italic;font-family:Georgia,serif' },
  underline: { text: 'U', style: 'text-decoration:underline' },
  strike: { text: 'S', style: 'text-decoration:line-through' },
  subscript: { text: 'x₂', style: '' },
  superscript: { text: 'x²', style: '' },
};

export type IconName = keyof typeof STROKES | keyof typeof LETTERS;

const SVG = 'http://www.w3.org/2000/svg';

/** The icon as an `<svg>` element, hidden from assistive technology (the button's label names it). */
export function icon(name: string): SVGSVGElement {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '18');
  svg.setAttribute('height', '18');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('svc-icon');
  const letter = LETTERS[name];
  if (letter) {
    const text = document.createElementNS(SVG, 'text');
    text.setAttribute('x', '12');
    text.setAttribute('y', '17.5');
    text.setAttribute('text-anchor', 'middle');
    text.setAttribute('font-size', letter.text.length > 1 ? '14' : '17');
    text.setAttribute('fill', 'currentColor');
    text.setAttribute('style', letter.style);
    text.textContent = letter.text;
    svg.append(text);
    return svg;
  }
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', STROKES[name] ?? '');
  path.setAttribute('fill', 'none');
  path.setAttribute('stroke', 'currentColor');
  path.setAttribute('stroke-width', '1.8');
  path.setAttribute('stroke-linecap', 'round');
  path.setAttribute('stroke-linejoin', 'round');
  svg.append(path);
  return svg;
}
