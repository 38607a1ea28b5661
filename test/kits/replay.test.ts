import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Document, Packer, Paragraph } from 'docx';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { richTextOf } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { png } from '../attachments/images.js';
import { pdfFixture } from '../support/pdf-fixtures.js';
import { testDatabases } from '../support/databases.js';
import { ALL_PERMISSIONS } from '../../examples/integrator/integrator.js';
import { DEFAULT_USER } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';
import { sign, signLicense } from '../support/signing.js';
import { decodeKit, kitPath, type Decoded, type Fields } from './kit-client.js';

/**
 * Every call of client-kits.md, replayed as the public Go kit sends it (method, path, headers, body) against the
 * real server in the kits' dialect, its answer decoded as the kit decodes it (kit-client.ts: a missing field, a
 * field of the wrong type or a body on a 204 is an error).
 */

/**
 * Calls whose feature is built on another branch (preview): replayed
 * like the others but expected to fail until that branch is merged. When one starts passing, this test fails:
 * remove its name here to switch it on.
 */
export const EXPECTED_PENDING: ReadonlySet<string> = new Set<string>();

const FAST_CONTENT = { coalesceMs: 100, coalesceMaxMs: 1000, pollMs: 50, compactAfter: 500, permissionRecheckMs: 60_000 };
const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };
const text = (value: string): ProseMirrorNode => ({ type: 'text', text: value });
const paragraph = (...content: ProseMirrorNode[]): ProseMirrorNode => ({ type: 'paragraph', content });

/** What the calls hand to each other (ids the service gave out), as a kit's caller keeps them. */
interface ReplayState {
  svc: TestService;
  /** where the import's fileUrl points: a small server answering a .docx */
  documentUrl: string;
  /** where upload-cell-image's srcUrl points: the same server answering a PNG */
  imageUrl: string;
  uploadTicket?: { accessToken: string; serverUrl: string; fileFieldKey: string };
  importTaskId?: string;
  legacyImportTaskId?: string;
  exportTaskId?: string;
  /** the changes compose-custom answered, in order */
  tids: string[];
}

interface KitCall {
  /** the "call" column of client-kits.md */
  name: string;
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** under /sdk/v2/api/ unless absolute, with its query */
  path: (state: ReplayState) => string;
  /** a licence call: licence signature, empty user token */
  license?: true;
  json?: (state: ReplayState) => unknown;
  form?: (state: ReplayState) => Promise<FormData> | FormData;
  /** what the integrator has to hold before the call (its own side of things, not a kit call) */
  before?: (state: ReplayState) => Promise<void>;
  /** 204: a write; otherwise 200 and what the kit decodes, with the replay's checks of the values */
  answer: { status: 204 } | { status: 200; html: true; until?: (page: string) => boolean } | { status: 200; decode: (body: unknown, state: ReplayState) => void };
  /** a progress call: the kit asks again until the task is done */
  pollUntil?: (decoded: Decoded) => boolean;
}

/** The backend envelope, which the kits model for import, export and their progress. */
const envelope = <const F extends Fields>(data: F) => ({ status: 'int', message: 'string', data }) as const;

const CALLS: KitCall[] = [
  {
    name: 'app details',
    method: 'GET',
    license: true,
    path: ({ svc }) => `license/apps/${svc.app.id}`,
    answer: {
      status: 200,
      decode: (body, { svc }) => {
        const app = decodeKit(body, {
          appName: 'string',
          availableFileTypes: ['array', 'string'],
          premiumFileTypes: ['array', 'string'],
          activatedUserCount: 'int',
          userCount: 'int',
          memberLimit: 'int',
          validFrom: 'string',
          validUntil: 'string',
          endpointUrl: 'string',
        });
        expect(app.endpointUrl).toBe(svc.integrator.url);
        expect(app.availableFileTypes).toContain('spreadsheet');
      },
    },
  },
  { name: 'set endpoint', method: 'PUT', license: true, path: ({ svc }) => `license/apps/${svc.app.id}/endpoint-url`, json: ({ svc }) => ({ url: svc.integrator.url }), answer: { status: 204 } },
  { name: 'activate', method: 'POST', license: true, path: () => 'license/users/activate', json: () => ({ userIds: ['user-1', 'user-2'] }), answer: { status: 204 } },
  { name: 'deactivate', method: 'POST', license: true, path: () => 'license/users/deactivate', json: () => ({ userIds: ['user-2'] }), answer: { status: 204 } },
  { name: 'set status', method: 'POST', license: true, path: () => 'license/users/set-status', json: () => ({ userIds: ['user-3'], status: -1 }), answer: { status: 204 } },
  {
    name: 'list seats',
    method: 'GET',
    license: true,
    path: () => 'license/users?page=1&size=20',
    answer: {
      status: 200,
      decode: (body) => {
        const seats = decodeKit(body, ['array', { userId: 'string', createdAt: 'string', status: 'int' }]);
        expect(Object.fromEntries(seats.map((seat) => [seat.userId, seat.status]))).toEqual({ 'user-1': 1, 'user-2': 0, 'user-3': -1 });
      },
    },
  },
  { name: 'create file', method: 'POST', path: () => 'files?lang=zh-CN', json: () => ({ type: 'documentPro', fileId: 'kit-pro', contentKey: '' }), answer: { status: 204 } },
  { name: 'copy', method: 'POST', path: () => '/sdk/v2/collab-files/kit-pro/copy', json: () => ({ fileId: 'kit-copy' }), before: seedDocument, answer: { status: 204 } },
  { name: 'delete', method: 'DELETE', path: () => 'files/kit-copy', answer: { status: 204 } },
  {
    name: 'sidebar history',
    method: 'GET',
    path: () => '/sdk/v2/collab-files/kit-pro/doc-sidebar-info?pageSize=20&count=0&historyType=3',
    before: async ({ svc }) => {
      const revision = await svc.call('POST', '/sdk/v2/collab-files/kit-pro/revisions', { body: { title: 'Kit replay' } });
      expect(revision.status, revision.text).toBe(200);
    },
    answer: {
      status: 200,
      decode: (body) => {
        const page = decodeKit(body, {
          histories: ['array', { id: 'string', content: 'string', createdAt: 'string', updateAt: 'string', historyType: 'int', name: 'string', userId: 'string' }],
          isLastPage: 'bool',
          limit: 'int',
          users: ['map', 'string'],
        });
        expect(page.histories.length).toBeGreaterThan(0);
      },
    },
  },
  {
    name: 'revisions',
    method: 'GET',
    path: () => '/sdk/v2/collab-files/kit-pro/revisions',
    answer: {
      status: 200,
      decode: (body) => {
        const revisions = decodeKit(body, ['array', { id: 'int', label: 'string', title: 'string', docHistoryId: 'string', createdAt: 'string', updatedAt: 'string', user: { id: 'string', name: 'string' } }]);
        expect(revisions.map((revision) => [revision.id, revision.title])).toEqual([[1, 'Kit replay']]);
      },
    },
  },
  {
    name: 'plain text',
    method: 'GET',
    path: () => '/sdk/v2/collab-files/kit-pro/plain-text',
    answer: { status: 200, decode: (body) => expect(decodeKit(body, { content: 'string' }).content).toBe('Dear @Test User,\nHello old friend\nPay in 30 days') },
  },
  {
    name: 'word count',
    method: 'POST',
    path: () => '/sdk/v2/collab-files/kit-pro/plain-text/wc',
    answer: { status: 200, decode: (body) => expect(decodeKit(body, { wordCount: 'int', keywords: ['map', 'int'] }).wordCount).toBeGreaterThan(5) },
  },
  {
    name: 'mentions',
    method: 'GET',
    path: () => '/sdk/v2/collab-files/kit-pro/mention-at-list',
    answer: {
      status: 200,
      decode: (body) => expect(decodeKit(body, { mentionAtList: ['array', { userId: 'string', atGuid: 'string' }] }).mentionAtList).toEqual([expect.objectContaining({ userId: 'user-1', atGuid: 'at-kit' })]),
    },
  },
  { name: 'comment count', method: 'GET', path: () => '/sdk/v2/collab-files/kit-pro/comment-count', answer: { status: 200, decode: (body) => expect(decodeKit(body, { count: 'int' }).count).toBe(0) } },
  {
    name: 'update values',
    method: 'POST',
    path: () => 'files/kit-sheet/sheets/values',
    json: () => ({ range: 'Sheet1!A1:B2', resource: { values: [['Name', 'Score'], ['Ann', 9]] } }),
    before: async ({ svc }) => {
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'spreadsheet', fileId: 'kit-sheet' } });
      expect(created.status, created.text).toBe(200);
    },
    answer: { status: 204 },
  },
  { name: 'append values', method: 'PUT', path: () => 'files/kit-sheet/sheets/values', json: () => ({ range: 'Sheet1!A1:B2', resource: { values: [['Bob', 7], ['Cy', 5]] } }), answer: { status: 204 } },
  {
    name: 'read values',
    method: 'GET',
    path: () => `files/kit-sheet/sheets/values?range=${encodeURIComponent('Sheet1!A1:B4')}`,
    answer: { status: 200, decode: (body) => expect(decodeKit(body, { values: ['array', ['array', 'any']] }).values).toEqual([['Name', 'Score'], ['Ann', 9], ['Bob', 7], ['Cy', 5]]) },
  },
  { name: 'delete rows', method: 'DELETE', path: () => 'files/kit-sheet/sheets/Sheet1/rows/1?count=2', answer: { status: 204 } },
  { name: 'add sheet', method: 'POST', path: () => 'files/kit-sheet/sheets', json: () => ({ name: 'Kit' }), answer: { status: 204 } },
  { name: 'insert rows', method: 'POST', path: () => 'files/kit-sheet/sheets/Sheet1/rows/1?count=2', answer: { status: 204 } },
  {
    name: 'set cell attributes',
    method: 'POST',
    path: () => 'files/kit-sheet/sheets/attrs',
    json: () => ({ range: 'Sheet1!A1:B1', attrs: { bold: true, backgroundColor: '#fff3bf', horizontalAlign: 'center', numberFormat: '0.00' } }),
    answer: { status: 200, decode: (body) => expect(decodeKit(body, { updatedRange: 'string', updatedCells: 'int' }).updatedCells).toBe(2) },
  },
  {
    name: 'sheet locks',
    method: 'GET',
    path: () => 'files/kit-sheet/sheets/locks',
    answer: { status: 200, decode: (body) => expect(decodeKit(body, { locks: ['array', 'any'] }).locks).toEqual([]) },
  },
  {
    name: 'is locked',
    method: 'GET',
    path: () => 'files/kit-sheet/judge-table-locked',
    answer: { status: 200, decode: (body) => expect(decodeKit(body, { lockedStatus: 'int' }).lockedStatus).toBe(0) },
  },
  {
    name: 'mention position',
    method: 'GET',
    path: () => 'files/kit-sheet/sheets/mention-at-position?atGuid=at-sheet',
    before: async ({ svc }) => {
      const comment = await svc.call('POST', '/sdk/v2/collab-files/kit-sheet/comments', {
        body: { selection: { sheet: 'Sheet1', range: 'C2' }, content: [{ type: 'mention', attrs: { id: 'user-1', guid: 'at-sheet' } }] },
      });
      expect(comment.status, comment.text).toBe(200);
    },
    answer: {
      status: 200,
      decode: (body) =>
        expect(decodeKit(body, { positionInfo: { sheetId: 'string', sheetName: 'string', row: 'int', col: 'int', position: 'string' } }).positionInfo).toEqual(
          expect.objectContaining({ sheetName: 'Sheet1', row: 1, col: 2, position: 'C2' }),
        ),
    },
  },
  { name: 'merge cells', method: 'POST', path: () => 'files/kit-sheet/sheets/merge-cells', json: () => ({ sheetName: 'Sheet1', cell: 'B2', rowspan: 2, colSpan: 3 }), answer: { status: 204 } },
  {
    name: 'attach a file to cells (Java kit)',
    method: 'POST',
    path: () => 'files/kit-sheet/attach',
    form: () => {
      const form = new FormData();
      form.append('range', 'Sheet1!B2');
      form.append('file', new Blob(['quarterly figures'], { type: 'text/plain' }), 'figures.txt');
      return form;
    },
    answer: {
      status: 200,
      decode: (body) => {
        const attached = decodeKit(body, {
          code: 'int',
          data: 'any',
          body: ['array', { GUID: 'string', filename: 'string', key: 'string', mimeType: 'string', images: 'bool', url: 'string', audio: 'bool', video: 'bool', width: 'any', height: 'any', size: 'int' }],
        });
        expect(attached.body).toEqual([expect.objectContaining({ filename: 'figures.txt', size: 17, images: false, cellRange: 'Sheet1!B2' })]);
      },
    },
  },
  {
    name: 'put an image in a cell',
    method: 'POST',
    path: () => 'files/kit-sheet/sheets/upload-cell-image',
    json: () => ({ sheetName: 'Sheet1', cell: 'C2', base64: png(4, 3).toString('base64') }),
    answer: { status: 204 },
  },
  { name: 'put an image in a cell (srcUrl)', method: 'POST', path: () => 'files/kit-sheet/sheets/upload-cell-image', json: ({ imageUrl }) => ({ sheetName: 'Sheet1', cell: 'D3', srcUrl: imageUrl }), answer: { status: 204 } },
  {
    name: 'cell images',
    method: 'GET',
    path: () => `files/kit-sheet/sheets/Sheet1/cells-image?cellsPosition=${encodeURIComponent('[{"row":1,"col":2},"A1","D3"]')}`,
    answer: {
      status: 200,
      decode: (body) => {
        const { images } = decodeKit(body, { images: ['array', 'any'] });
        expect(images).toEqual([expect.stringMatching(/^\/sdk\/v2\/attachments\//), null, expect.stringMatching(/^\/sdk\/v2\/attachments\//)]);
        expect(images[0]).not.toBe(images[2]);
      },
    },
  },
  {
    name: 'read bookmarks',
    method: 'GET',
    path: () => 'files/kit-pro/documentpro/bookmark_content?bookmarks=greeting&bookmarks=terms',
    answer: {
      status: 200,
      decode: (body) =>
        expect(decodeKit(body, { data: ['array', { bookmark: 'string', content: 'string' }] }).data).toEqual([
          { bookmark: 'greeting', content: 'Hello old friend' },
          { bookmark: 'terms', content: 'Pay in 30 days' },
        ]),
    },
  },
  {
    name: 'replace bookmarks',
    method: 'PUT',
    path: () => 'files/kit-pro/documentpro/bookmark_content',
    json: () => ({ replacements: [{ bookmark: 'greeting', type: 'text', value: 'Hi again' }] }),
    answer: { status: 204 },
  },
  {
    name: 'document as Markdown',
    method: 'GET',
    path: () => 'files/content/kit-pro/r2m',
    answer: {
      status: 200,
      decode: (body) => {
        const { content } = decodeKit(body, { content: 'string' });
        expect(content).toContain('Hi again');
        expect(content).toContain('Pay in 30 days');
      },
    },
  },
  {
    name: 'append Markdown',
    method: 'POST',
    path: () => 'files/edit/kit-pro/compose-custom',
    json: () => ({ typ: 'md', content: '## Added by a kit\n\n- **first** point\n- [a link](https://example.com/)' }),
    answer: {
      status: 200,
      decode: (body, { tids }) => {
        const change = decodeKit(body, { status: 'string', tid: 'string' });
        expect(change.tid).not.toBe('');
        tids.push(change.tid);
      },
    },
  },
  {
    name: 'appended Markdown reads back',
    method: 'GET',
    path: () => 'files/content/kit-pro/r2m',
    answer: {
      status: 200,
      decode: (body) => expect(decodeKit(body, { content: 'string' }).content).toMatch(/Pay in 30 days[\s\S]*## Added by a kit\n\n- \*\*first\*\* point\n- \[a link\]\(<https:\/\/example\.com\/>\)\n$/),
    },
  },
  {
    name: 'the appended change is a history entry',
    method: 'GET',
    path: () => '/sdk/v2/collab-files/kit-pro/doc-sidebar-info?pageSize=1&count=0&historyType=1',
    answer: {
      status: 200,
      decode: (body, { tids }) => expect(decodeKit(body, { histories: ['array', { id: 'string' }] }).histories.map((entry) => entry.id)).toEqual(tids.slice(-1)),
    },
  },
  {
    name: 'import (legacy)',
    method: 'POST',
    path: () => 'files/v1/import',
    form: async () => {
      const form = new FormData();
      form.append('fileId', 'kit-imported-v1');
      form.append('type', 'document');
      form.append('fileUrl', '');
      form.append('fileName', 'kit.docx');
      form.append('file', new Blob([await docx()]), 'kit.docx');
      return form;
    },
    answer: { status: 200, decode: (body, state) => (state.legacyImportTaskId = decodeKit(body, envelope({ taskId: 'string' })).data.taskId) },
  },
  {
    name: 'import',
    method: 'POST',
    path: () => 'files/v2/import',
    json: ({ documentUrl }) => ({ fileId: 'kit-imported', type: 'document', fileUrl: documentUrl, fileName: 'kit.docx' }),
    answer: { status: 200, decode: (body, state) => (state.importTaskId = decodeKit(body, envelope({ taskId: 'string' })).data.taskId) },
  },
  {
    name: 'import progress (legacy)',
    method: 'POST',
    path: ({ legacyImportTaskId }) => `files/v1/import/progress?taskId=${encodeURIComponent(legacyImportTaskId ?? '')}`,
    answer: { status: 200, decode: (body) => decodeKit(body, envelope({ progress: 'int' })) },
    pollUntil: (decoded) => (decoded as { data: { progress: number } }).data.progress === 100,
  },
  {
    name: 'import progress',
    method: 'POST',
    path: () => 'files/v2/import/progress',
    json: ({ importTaskId }) => ({ taskId: importTaskId ?? '' }),
    answer: { status: 200, decode: (body) => decodeKit(body, envelope({ progress: 'int' })) },
    pollUntil: (decoded) => (decoded as { data: { progress: number } }).data.progress === 100,
  },
  {
    name: 'export',
    method: 'POST',
    path: () => 'files/v1/export/kit-pro',
    json: () => ({ type: 'docx' }),
    answer: { status: 200, decode: (body, state) => (state.exportTaskId = decodeKit(body, envelope({ taskId: 'string' })).data.taskId) },
  },
  {
    name: 'export progress',
    method: 'POST',
    path: ({ exportTaskId }) => `files/v1/export/progress?taskId=${encodeURIComponent(exportTaskId ?? '')}`,
    answer: { status: 200, decode: (body) => decodeKit(body, { status: 'int', message: 'string', data: { progress: 'int' } }) },
    pollUntil: (decoded) => {
      const data = (decoded as { data: { progress: number } }).data;
      if (data.progress !== 100) return false;
      decodeKit(data, { progress: 'int', downloadUrl: 'string' });
      return true;
    },
  },
  {
    name: 'export a table file',
    method: 'POST',
    path: () => 'files/export/table-sheets/kit-table',
    before: async ({ svc }) => {
      const created = await svc.call('POST', '/sdk/v2/api/files', { body: { type: 'table', fileId: 'kit-table' } });
      expect(created.status, created.text).toBe(200);
    },
    answer: { status: 200, decode: (body) => decodeKit(body, { status: 'int', message: 'string', downloadUrl: 'string' }) },
  },
  {
    name: 'create preview',
    method: 'POST',
    path: () => 'cloud-files/kit-preview/create',
    before: async ({ svc }) => {
      // the reference integrator serves the file at its default downloadUrl (/download/kit-preview)
      svc.integrator.addFile({ id: 'kit-preview', name: 'kit.pdf', type: 'file', content: pdfFixture(['Kit preview']), grants: { [DEFAULT_USER.id]: { ...ALL_PERMISSIONS } } });
    },
    answer: { status: 200, decode: (body) => expect(decodeKit(body, { code: 'string', message: 'string' }).code).toBe('') },
  },
  {
    name: 'open preview',
    method: 'GET',
    path: () => 'cloud-files/kit-preview/page',
    // asked again while it is being built; then it must be the pdf's viewer (an error page fails the replay)
    answer: { status: 200, html: true, until: (page) => page.includes('id="svc-preview"') && page.includes('"shows":"pdf","src":"view/file?') && page.includes('"pageCount":1') },
  },
  {
    name: 'attachment token',
    method: 'POST',
    path: () => '/uploader/token',
    json: () => [{ bucket: 'images', filename: 'chart.png', fileGuid: 'kit-pro', fileSize: png(4, 3).length, encrypt: '' }],
    answer: {
      status: 200,
      decode: (body, state) => {
        const [ticket] = decodeKit(body, [
          'array',
          { accessToken: 'string', directory: 'string', download: 'string', guid: 'string', images: 'string', fileFieldKey: 'string', key: 'string', serverUrl: 'string', url: 'string' },
        ]);
        expect(ticket).toMatchObject({ download: 'false', images: 'true' });
        expect(ticket!.serverUrl).toBe(`${state.svc.url}/uploader/upload`);
        state.uploadTicket = ticket;
      },
    },
  },
  {
    name: 'attachment upload',
    method: 'POST',
    path: () => '/uploader/upload',
    form: ({ uploadTicket }) => {
      const form = new FormData();
      form.append('accessToken', uploadTicket?.accessToken ?? '');
      form.append('download', 'false');
      form.append('download', 'true');
      form.append(uploadTicket?.fileFieldKey ?? 'file', new Blob([png(4, 3)], { type: 'image/png' }), 'chart.png');
      return form;
    },
    answer: {
      status: 200,
      decode: (body) => {
        const uploaded = decodeKit(body, {
          code: 'int',
          data: 'any',
          body: { GUID: 'string', filename: 'string', key: 'string', mimeType: 'string', images: 'string', url: 'string', audio: 'bool', video: 'bool', width: 'string', height: 'string', size: 'string' },
        });
        expect(uploaded.body).toMatchObject({ mimeType: 'image/png', images: 'true', width: '4', height: '3', size: String(png(4, 3).length), filename: 'chart.png' });
      },
    },
  },
];

/** kit-pro's content: a mention and two bookmarks, written as an editor would (the integrator's users write it). */
async function seedDocument({ svc }: ReplayState): Promise<void> {
  const nodes: ProseMirrorNode[] = [
    paragraph(text('Dear '), { type: 'mention', attrs: { id: 'user-1', label: 'Test User', guid: 'at-kit' } }, text(',')),
    { type: 'bookmark', attrs: { name: 'greeting' }, content: [paragraph(text('Hello old friend'))] },
    { type: 'bookmark', attrs: { name: 'terms' }, content: [paragraph(text('Pay in 30 days'))] },
  ];
  await svc.services.content.change(svc.app.id, 'kit-pro', author, (doc) => {
    const root = richTextOf(doc);
    root.insert(root.length, toYNodes(parseFragment(nodes)));
  });
}

function docx(): Promise<Buffer> {
  return Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('Imported by a client kit')] }] }));
}

/** Sends one call exactly as the Go kit does: its four headers, a JSON content type even without a body. */
async function send(call: KitCall, state: ReplayState): Promise<Response> {
  const { svc } = state;
  const signature = call.license ? await signLicense(svc.app.id, svc.app.secret) : await sign(svc.app.id, svc.app.secret, { expiresIn: 24 * 3600 });
  const token = call.license ? '' : DEFAULT_USER.token;
  const headers: Record<string, string> = {
    'X-Shimo-Signature': signature,
    'X-Shimo-Token': token,
    'X-Weboffice-Token': token,
    'X-Weboffice-User-Uuid': '',
  };
  let body: string | FormData | undefined;
  if (call.form) body = await call.form(state);
  else {
    headers['Content-Type'] = 'application/json';
    if (call.json) body = JSON.stringify(call.json(state));
  }
  return fetch(`${svc.url}${kitPath(call.path(state))}`, { method: call.method, headers, body });
}

async function replay(call: KitCall, state: ReplayState): Promise<void> {
  await call.before?.(state);
  for (;;) {
    const response = await send(call, state);
    const text = await response.text();
    const { answer } = call;
    expect(response.status, `${call.name}: ${text}`).toBe(answer.status);
    if (answer.status === 204) {
      expect(text, `${call.name}: a 204 carries no body`).toBe('');
      return;
    }
    if ('html' in answer) {
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      expect(text).toMatch(/<html/i);
      expect(text, `${call.name}: an error page`).not.toContain('role="alert"');
      if (!answer.until || answer.until(text)) return;
    } else {
      expect(response.headers.get('content-type'), call.name).toMatch(/^application\/json/);
      const decoded = JSON.parse(text) as Decoded;
      answer.decode(decoded, state);
      if (!call.pollUntil || call.pollUntil(decoded)) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const database of testDatabases()) {
  describe(`client kits replayed in their dialect [${database.name}]`, () => {
    const state = { tids: [] as string[] } as ReplayState;
    let documentServer: http.Server;
    beforeAll(async () => {
      const document = await docx();
      documentServer = http.createServer((request, response) =>
        response.writeHead(200, { 'content-type': 'application/octet-stream' }).end(request.url === '/cell.png' ? png(4, 3) : document),
      );
      await new Promise<void>((resolve) => documentServer.listen(0, '127.0.0.1', resolve));
      state.documentUrl = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}/kit.docx`;
      state.imageUrl = `http://127.0.0.1:${(documentServer.address() as AddressInfo).port}/cell.png`;
      state.svc = await startService(database, { integrator: true, content: FAST_CONTENT, compatHeaderPrefix: 'X-Shimo-' });
    });
    afterAll(async () => {
      await state.svc?.close();
      await new Promise((resolve) => documentServer?.close(resolve));
    });

    it('lists every call of client-kits.md', () => {
      expect(CALLS.map((call) => call.name)).toEqual(expect.arrayContaining([...EXPECTED_PENDING]));
      expect(new Set(CALLS.map((call) => call.name)).size).toBe(CALLS.length);
    });

    for (const call of CALLS) {
      const test = EXPECTED_PENDING.has(call.name) ? it.fails : it;
      test(`${call.name} (${call.method})`, () => replay(call, state));
    }
  });
}
