import ExcelJS from 'exceljs';
import pptxgenModule from 'pptxgenjs';
import type { FileKind } from './intranet.js';

/**
 * What the demo's first run puts in its files, as files a person would import (the import API converts them):
 * a welcome document with headings and a table, requirements, a budget workbook whose totals are formulas, a
 * short deck, and a tracker table whose columns get their types (date, checkbox, number) from the values.
 */

export interface SeedFile {
  name: string;
  type: FileKind;
  creator: string;
  content: () => Promise<{ fileName: string; bytes: Uint8Array }>;
  /** a comment on the document's text `from`-`to`, by `author` */
  comment?: { author: string; from: number; to: number; text: string };
}

const encoder = new TextEncoder();
const text = (fileName: string, body: string) => async () => ({ fileName, bytes: encoder.encode(body) });

const WELCOME = `# Welcome to the intranet

This is a shared document: everyone at Acme can edit it at the same time. Open it in a second window as
another colleague to see their caret move.

## What is here

| File | What to try |
| --- | --- |
| Budget 2027 | Change a quarter: the totals are formulas and follow |
| Quarterly review | A short deck: move a box, add a slide |
| Release checklist | A table with typed columns: dates, checkboxes, numbers |
| Product requirements | A long document with an outline |

## Try this

- Select some text and **comment** on it, or answer the comment on the title.
- Type **@** to mention a colleague: they get a notification through the integrator.
- Watch the **events** the service sends to the integrator on the right.
`;

const REQUIREMENTS = `# Product requirements

## Goals

1. Editing together without conflicts, online and after a reconnect.
2. Files that open in Office and WPS, both ways.
3. Nothing leaves the company's servers.

## Non-goals

- A file manager: the intranet keeps its own list of files.
- Accounts: the intranet says who people are.

## Open questions

> Which export formats do the finance team need beyond xlsx and pdf?
`;

/** The budget as a workbook: amounts grouped by thousands, the shares as percentages, the header row bold. */
async function budget(): Promise<{ fileName: string; bytes: Uint8Array }> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet('Budget');
  const quarters = ['B', 'C', 'D', 'E'];
  sheet.addRow(['Item', 'Q1', 'Q2', 'Q3', 'Q4', 'Year']).font = { bold: true };
  const items: Array<[string, number[]]> = [
    ['Salaries', [120000, 122000, 125000, 128000]],
    ['Office', [18000, 18000, 18500, 18500]],
    ['Travel', [6000, 9000, 7000, 11000]],
    ['Software', [4000, 4000, 4500, 4500]],
  ];
  for (const [at, [item, amounts]] of items.entries()) sheet.addRow([item, ...amounts, { formula: `SUM(B${at + 2}:E${at + 2})` }]);
  const total = sheet.addRow(['Total', ...[...quarters, 'F'].map((column) => ({ formula: `SUM(${column}2:${column}5)` }))]);
  total.font = { bold: true };
  sheet.addRow(['Share of year', ...quarters.map((column) => ({ formula: `${column}6/$F$6` })), { formula: 'SUM(B7:E7)' }]);
  for (let row = 2; row <= 6; row++) for (const column of [...quarters, 'F']) sheet.getCell(`${column}${row}`).numFmt = '#,##0';
  for (const column of [...quarters, 'F']) sheet.getCell(`${column}7`).numFmt = '0.0%';
  return { fileName: 'budget-2027.xlsx', bytes: new Uint8Array(await workbook.xlsx.writeBuffer()) };
}

const CHECKLIST = [
  'Task,Owner,Due,Done,Estimate (h)',
  'Freeze the features,Alice Chen,2027-03-01,TRUE,2',
  'Update the translations,Carol Díaz,2027-03-04,TRUE,6',
  'Run the load test,Bob Martin,2027-03-08,FALSE,8',
  'Write the release notes,Alice Chen,2027-03-10,FALSE,3',
  'Tag and publish,Dan Okafor,2027-03-12,FALSE,1',
].join('\r\n');

// pptxgenjs ships CommonJS-style typings for an ES module (src/domain/export/converters/pptx.ts says more)
const PptxGenJS = ((pptxgenModule as { default?: unknown }).default ?? pptxgenModule) as typeof pptxgenModule.default;

async function deck(): Promise<{ fileName: string; bytes: Uint8Array }> {
  const pptx = new PptxGenJS();
  pptx.layout = 'LAYOUT_16x9';
  const slides: Array<{ title: string; points: string[] }> = [
    { title: 'Quarterly review', points: ['Q1 2027', 'Product, Engineering and Design'] },
    { title: 'What shipped', points: ['Editing together in documents, sheets and slides', 'Comments and mentions', 'Import and export of Office files'] },
    { title: 'Next quarter', points: ['Faster large workbooks', 'Offline editing', 'Hiring: two engineers'] },
  ];
  for (const { title, points } of slides) {
    const slide = pptx.addSlide();
    slide.addText(title, { x: 0.6, y: 0.4, w: 8.8, h: 1, fontSize: 32, bold: true });
    slide.addText(
      points.map((point) => ({ text: point, options: { bullet: true, breakLine: true } })),
      { x: 0.6, y: 1.6, w: 8.8, h: 3.4, fontSize: 20, valign: 'top' },
    );
  }
  return { fileName: 'quarterly-review.pptx', bytes: new Uint8Array((await pptx.write({ outputType: 'nodebuffer' })) as Buffer) };
}

/** Newest first in the intranet's list: the welcome document comes last, so it is on top. */
export const SEED_FILES: SeedFile[] = [
  { name: 'Release checklist', type: 'table', creator: 'dan', content: text('release-checklist.csv', CHECKLIST) },
  { name: 'Quarterly review', type: 'presentation', creator: 'carol', content: deck },
  { name: 'Budget 2027', type: 'spreadsheet', creator: 'bob', content: budget },
  { name: 'Product requirements', type: 'documentPro', creator: 'alice', content: text('product-requirements.md', REQUIREMENTS) },
  {
    name: 'Welcome to the intranet',
    type: 'document',
    creator: 'alice',
    content: text('welcome.md', WELCOME),
    // "Welcome" in the title (the heading's text starts at position 1)
    comment: { author: 'bob', from: 1, to: 8, text: 'Nice start! I added the budget for next year.' },
  },
];
