import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import { richTextOf, type Cell } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { ooxmlProblems } from '../support/ooxml.js';
import type { CallResult, TestService } from '../support/service.js';
import { putCells } from '../sheets/stored-cells.js';

export const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };

export const text = (value: string, marks?: ProseMirrorNode['marks']): ProseMirrorNode => ({ type: 'text', text: value, ...(marks ? { marks } : {}) });
export const paragraph = (...content: ProseMirrorNode[]): ProseMirrorNode => ({ type: 'paragraph', content });

/** A file registered with the service (and, named, with the integrator), of `type`. */
export async function createFile(svc: TestService, fileId: string, type: string, name?: string): Promise<void> {
  if (name !== undefined) svc.integrator.addFile({ id: fileId, type, name, grants: { [DEFAULT_USER.id]: { readable: true, editable: true, exportable: true } } });
  const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type, fileId } });
  expect(created.status, created.text).toBe(200);
}

export function writeRichText(svc: TestService, fileId: string, nodes: ProseMirrorNode[]): Promise<void> {
  return svc.services.content.change(svc.app.id, fileId, author, (doc) => {
    const root = richTextOf(doc);
    root.insert(root.length, toYNodes(parseFragment(nodes)));
  });
}

/** Stores cells given by A1 address (`B2`) in a sheet of the file. */
export function setCells(svc: TestService, fileId: string, cells: Record<string, Cell>, sheet = 0): Promise<void> {
  return svc.services.content.change(svc.app.id, fileId, author, (doc) => putCells(doc, cells, sheet));
}

export function startExport(svc: TestService, fileId: string, type: string): Promise<CallResult> {
  return svc.call('POST', `/sdk/v2/api/files/v1/export/${encodeURIComponent(fileId)}`, { body: { type } });
}

/** Polls the export's progress until it is done or failed; answers the last progress answer. */
export async function awaitExport(svc: TestService, taskId: string): Promise<CallResult> {
  let last: CallResult | undefined;
  await eventually(
    async () => {
      last = await svc.call('POST', '/sdk/v2/api/files/v1/export/progress', { body: { taskId } });
      return last.status !== 200 || last.body.data.progress === 100;
    },
    `export task ${taskId}`,
    120_000,
  );
  return last!;
}

const OFFICE_TYPES = new Set(['docx', 'xlsx', 'pptx']);

/**
 * Exports `fileId` as `type` through the API and downloads the file with no credentials at all; an Office file
 * must pass the structure checks of test/support/ooxml.ts.
 */
export async function exportFile(svc: TestService, fileId: string, type: string): Promise<{ bytes: Buffer; response: Response; downloadUrl: string }> {
  const started = await startExport(svc, fileId, type);
  expect(started.status, started.text).toBe(200);
  const done = await awaitExport(svc, started.body.data.taskId as string);
  expect(done.status, done.text).toBe(200);
  const downloadUrl = done.body.data.downloadUrl as string;
  const response = await fetch(downloadUrl);
  expect(response.status).toBe(200);
  const bytes = Buffer.from(await response.arrayBuffer());
  if (OFFICE_TYPES.has(type)) expect(await ooxmlProblems(bytes), `the ${type} export of ${fileId} breaks the Office Open XML structure`).toEqual([]);
  return { bytes, response, downloadUrl };
}

/** An exported workbook, read back by exceljs (an independent reader of the format). */
export async function workbookOf(bytes: Buffer): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(bytes as unknown as ArrayBuffer);
  return workbook;
}
