import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { richTextOf } from '../../src/model/content.js';
import { parseFragment, toYNodes, type ProseMirrorNode } from '../../src/model/rich-text/schema.js';
import { png } from '../attachments/images.js';
import { addPeople, createFile, data, expectFailure, FAST_CONTENT, SECOND_USER } from '../conversations/support.js';
import { testDatabases } from '../support/databases.js';
import { DEFAULT_USER, eventually } from '../support/integrator.js';
import { startService, type TestService } from '../support/service.js';

const r2m = (fileId: string) => `/sdk/v2/api/files/content/${fileId}/r2m`;
const compose = (fileId: string) => `/sdk/v2/api/files/edit/${fileId}/compose-custom`;
const author = { userId: DEFAULT_USER.id, name: DEFAULT_USER.name };
const text = (value: string, marks?: ProseMirrorNode['marks']): ProseMirrorNode => ({ type: 'text', text: value, ...(marks ? { marks } : {}) });

for (const database of testDatabases()) {
  describe(`documents as Markdown and Markdown appended (r2m, compose-custom) [${database.name}]`, () => {
    let svc: TestService;
    beforeEach(async () => {
      svc = await startService(database, { integrator: true, content: FAST_CONTENT });
      addPeople(svc);
    });
    afterEach(async () => {
      await svc.close();
    });

    it('r2m: headings, lists, bold/italic, links, tables and images as links to this service', async () => {
      await createFile(svc, 'doc-1', 'documentPro');
      const nodes: ProseMirrorNode[] = [
        { type: 'heading', attrs: { level: 2 }, content: [text('Contract')] },
        { type: 'paragraph', content: [text('Read '), text('this', [{ type: 'bold' }]), text(' and '), text('that', [{ type: 'italic' }]), text(' at '), text('our site', [{ type: 'link', attrs: { href: 'https://example.com/' } }])] },
        { type: 'bulletList', content: [{ type: 'listItem', content: [{ type: 'paragraph', content: [text('one')] }] }] },
        { type: 'table', content: [{ type: 'tableRow', content: [{ type: 'tableHeader', content: [{ type: 'paragraph', content: [text('A')] }] }] }, { type: 'tableRow', content: [{ type: 'tableCell', content: [{ type: 'paragraph', content: [text('1')] }] }] }] },
        { type: 'paragraph', content: [{ type: 'image', attrs: { src: '/sdk/v2/attachments/img-1', alt: 'chart' } }] },
      ];
      await svc.services.content.change(svc.app.id, 'doc-1', author, (doc) => richTextOf(doc).insert(0, toYNodes(parseFragment(nodes))));
      const { content } = data(await svc.call('GET', r2m('doc-1')));
      expect(content).toBe(
        [
          '## Contract',
          'Read **this** and *that* at [our site](<https://example.com/>)',
          '- one',
          '| A |\n| --- |\n| 1 |',
          `![chart](<${svc.url}/sdk/v2/attachments/img-1>)`,
        ].join('\n\n') + '\n',
      );
    });

    it('compose-custom appends Markdown as one recorded change: FileContent event, a history entry named by tid, data: images stored', async () => {
      await createFile(svc, 'doc-1', 'document');
      await svc.services.content.change(svc.app.id, 'doc-1', author, (doc) => richTextOf(doc).insert(0, toYNodes(parseFragment([{ type: 'paragraph', content: [text('Before')] }]))));
      await svc.services.content.flush(svc.app.id, 'doc-1');
      const image = `data:image/png;base64,${png(3, 2).toString('base64')}`;
      const appended = data(await svc.call('POST', compose('doc-1'), { body: { typ: 'md', content: `# Added\n\n1. *first*\n2. second\n\n![dot](${image})` } }));
      expect(appended).toEqual({ tid: expect.any(String), version: 2 });

      const history = data(await svc.call('GET', `/sdk/v2/collab-files/doc-1/doc-sidebar-info`, { query: { historyType: 1 } }));
      expect(history.histories[0]).toMatchObject({ id: appended.tid, userId: DEFAULT_USER.id });
      await eventually(() => svc.integrator.events.filter((event) => event.eventClass === 'FileContent' && event.body.fileId === 'doc-1').length === 2, 'FileContent of the append');

      const { content } = data(await svc.call('GET', r2m('doc-1')));
      const [, guid] = /!\[dot\]\(<[^>]*\/sdk\/v2\/attachments\/([\w-]+)>\)/.exec(content) ?? [];
      expect(content.startsWith('Before\n\n# Added\n\n1. *first*\n2. second\n\n![dot]')).toBe(true);
      const picture = await svc.call('GET', `/sdk/v2/attachments/${guid}`);
      expect(picture.status).toBe(200);
      expect(picture.headers.get('content-type')).toBe('image/png');
    });

    it('refuses bad input, other kinds and callers without the permission, and changes nothing', async () => {
      await createFile(svc, 'doc-1', 'document');
      await createFile(svc, 'sheet-1', 'spreadsheet');
      for (const body of [{}, { typ: 'md' }, { typ: 'html', content: 'x' }, { typ: 'md', content: '' }, { typ: 'md', content: 'x'.repeat(1_000_001) }, { typ: 'md', content: '  \n\n ' }]) {
        expectFailure(await svc.call('POST', compose('doc-1'), { body }), 400, 125100);
      }
      expectFailure(await svc.call('POST', compose('sheet-1'), { body: { typ: 'md', content: 'x' } }), 400, 70004);
      expectFailure(await svc.call('GET', r2m('sheet-1')), 400, 70004);
      expectFailure(await svc.call('GET', r2m('missing')), 404, 70013);
      svc.integrator.grant('doc-1', SECOND_USER.id, { readable: true, editable: false });
      expectFailure(await svc.call('POST', compose('doc-1'), { token: SECOND_USER.token, body: { typ: 'md', content: 'x' } }), 403, 40300);
      expect(data(await svc.call('GET', r2m('doc-1'), { token: SECOND_USER.token }))).toEqual({ content: '' });
      const other = await svc.createApp({ name: 'Other' });
      expectFailure(await svc.call('POST', compose('doc-1'), { signature: await svc.sign({}, other), body: { typ: 'md', content: 'x' } }), 404, 70013);
    });
  });
}
