import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import type { App } from '../../src/apps/app.js';
import { Errors } from '../../src/errors.js';
import { applyStored, ContentStore } from '../../src/storage/content-store.js';
import type { ReferenceIntegrator } from '../../examples/integrator/integrator.js';
import { connectEditor, type Editor } from '../content/support.js';
import { eventually, startTestIntegrator } from '../support/integrator.js';
import { asApp, call, clusterPrerequisites, startCluster, type TestCluster } from './support.js';

const available = await clusterPrerequisites();

const text = (editor: Editor) => editor.doc.getText('probe').toString();

describe.skipIf(!available)('three service processes on PostgreSQL + Redis', { timeout: 180_000 }, () => {
  let cluster: TestCluster;
  let integrator: ReferenceIntegrator;
  const secrets = new Map<string, string>();
  const editors: Editor[] = [];

  beforeAll(async () => {
    integrator = await startTestIntegrator((appId) => secrets.get(appId));
    // The storage poll would carry edits after a minute: what arrives sooner came through Redis. Answers are
    // remembered for ten minutes: only an announcement makes another process drop them.
    cluster = await startCluster(3, { SVC_CONTENT_POLL_MS: '60000', SVC_PERMISSION_CACHE_MS: '600000', SVC_CONTENT_COALESCE_MS: '50' });
  }, 180_000);
  afterAll(async () => {
    for (const editor of editors) await editor.close();
    await cluster?.dispose();
    await integrator?.close();
  });

  const newApp = async (settings: Parameters<TestCluster['createApp']>[0] = {}): Promise<App> => {
    const app = await cluster.createApp({ endpointUrl: integrator.url, ...settings });
    secrets.set(app.id, app.secret);
    return app;
  };
  const editor = async (node: number, app: App, fileId: string) => {
    const opened = await connectEditor(asApp(cluster.nodes[node]!, app), fileId);
    editors.push(opened);
    return opened;
  };

  it('reports Redis up in /healthz and /readyz', async () => {
    for (const node of cluster.nodes) {
      const health = (await (await fetch(`${node.url}/healthz`)).json()) as Record<string, unknown>;
      expect(health).toEqual({ status: 'ok', database: 'postgres', redis: 'up' });
      expect((await fetch(`${node.url}/readyz`)).status).toBe(200);
    }
  });

  it('two editors on different processes converge through Redis, and the edit is recorded once', async () => {
    const app = await newApp();
    expect((await call(cluster.nodes[0]!, app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'shared-doc' })).body.status).toBe(0);
    integrator.addUser({ id: 'second-user', name: 'Second', token: 'second-token' });
    const first = await editor(0, app, 'shared-doc');
    const second = await connectEditor(asApp(cluster.nodes[1]!, app), 'shared-doc', { token: 'second-token' });
    editors.push(second);
    first.doc.getText('probe').insert(0, 'from process A');
    await first.saved();
    await eventually(() => text(second) === 'from process A', 'the edit on process B');
    second.doc.getText('probe').insert(0, 'B says hi; ');
    await eventually(() => text(first) === 'B says hi; from process A', 'the answer on process A');
    await second.saved();
    // recorded by the process that received each edit only, never again by a process it reached through Redis:
    // at most one version per edit, and exactly one FileContent event per version.
    // (Two edits on two processes within one coalescing window may make one version: a record covers the
    // content up to the stored seq it read, and a later record finding that seq already recorded adds none.)
    let version = 0;
    await eventually(async () => {
      const file = await cluster.storage.db.selectFrom('files').select('version').where('app_id', '=', app.id).where('file_id', '=', 'shared-doc').executeTakeFirst();
      version = file?.version ?? 0;
      return version >= 1;
    }, 'the edits recorded');
    // a third process opening the file now sees both
    const third = await editor(2, app, 'shared-doc');
    expect(text(third)).toBe('B says hi; from process A');
    const recorded = await cluster.storage.db.selectFrom('files').select('version').where('app_id', '=', app.id).where('file_id', '=', 'shared-doc').executeTakeFirstOrThrow();
    expect(recorded.version).toBeLessThanOrEqual(2);
    const events = await cluster.storage.db.selectFrom('event_outbox').select('id').where('app_id', '=', app.id).where('event_class', '=', 'FileContent').execute();
    expect(events).toHaveLength(recorded.version);
  });

  it('an API change on a process where nobody has the file open reaches its editors elsewhere', async () => {
    const app = await newApp();
    await call(cluster.nodes[0]!, app, 'POST', '/sdk/v2/api/files', { type: 'spreadsheet', fileId: 'sheet' });
    const watcher = await editor(0, app, 'sheet');
    const before = Y.encodeStateVector(watcher.doc);
    const written = await call(cluster.nodes[2]!, app, 'PUT', '/sdk/v2/api/files/sheet/sheets/values', { range: 'Sheet1!A1', resource: { values: [['through C']] } });
    expect(written.body.status).toBe(0);
    await eventually(() => Y.encodeStateVector(watcher.doc).toString() !== before.toString(), 'the API change on process A');
  });

  it('keeps applications that share a Redis apart, even with the same fileId', async () => {
    const one = await newApp();
    const two = await newApp();
    for (const app of [one, two]) await call(cluster.nodes[0]!, app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'same-id' });
    const oneA = await editor(0, one, 'same-id');
    const oneB = await editor(1, one, 'same-id');
    const twoB = await editor(1, two, 'same-id');
    const twoC = await editor(2, two, 'same-id');
    oneA.doc.getText('probe').insert(0, 'only for app one');
    twoC.doc.getText('probe').insert(0, 'only for app two');
    await eventually(() => text(oneB) === 'only for app one' && text(twoB) === 'only for app two', 'each app converged');
    await oneA.saved();
    await twoC.saved();
    expect(text(oneA)).toBe('only for app one');
    expect(text(twoC)).toBe('only for app two');
  });

  it('holds one app to its QPS limit across the processes, leaving another app alone', async () => {
    const limit = 30;
    const busy = await newApp({ qpsLimit: limit });
    const quiet = await newApp({ qpsLimit: limit });
    const health = (app: App, node: number) => call(cluster.nodes[node]!, app, 'GET', `/sdk/v2/api/license/apps/${app.id}`, undefined, { license: true });
    // Each process alone would let `limit` through: a burst of three times the limit, a third to each, that
    // ends within one window shows whether the processes count together. A burst the loaded machine spread
    // over more than one window proves nothing either way and is tried again with a fresh app.
    for (let attempt = 0; ; attempt++) {
      const app = attempt === 0 ? busy : await newApp({ qpsLimit: limit });
      const started = Date.now();
      const answers = await Promise.all(Array.from({ length: 3 * limit }, (_, i) => health(app, i % 3)));
      const quietAnswers = await Promise.all(Array.from({ length: limit / 2 }, (_, i) => health(quiet, i % 3)));
      const elapsed = Date.now() - started;
      if (elapsed >= 900 && attempt < 4) continue;
      const accepted = answers.filter((answer) => answer.status === 200).length;
      expect(accepted).toBeGreaterThanOrEqual(Math.floor(limit * 0.9));
      expect(accepted).toBeLessThanOrEqual(Math.ceil(limit * 1.1));
      const refused = answers.find((answer) => answer.status !== 200)!;
      expect(refused.status).toBe(Errors.rateLimited.http);
      expect(refused.body.status).toBe(Errors.rateLimited.code);
      expect(quietAnswers.every((answer) => answer.status === 200)).toBe(true);
      return;
    }
  });

  it('uses an endpoint URL changed through process A on process B’s next callback', async () => {
    const app = await newApp();
    const moved = await startTestIntegrator((appId) => secrets.get(appId));
    try {
      // B remembers the old address's answer about the token (for ten minutes)
      expect((await call(cluster.nodes[1]!, app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'before-move' })).body.status).toBe(0);
      const changed = await call(cluster.nodes[0]!, app, 'PUT', `/sdk/v2/api/license/apps/${app.id}/endpoint-url`, { url: moved.url }, { license: true });
      expect(changed.body.status).toBe(0);
      const after = await call(cluster.nodes[1]!, app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'after-move' });
      expect(after.body.status).toBe(0);
      expect(moved.calls.filter((c) => c.path === '/users/current/info')).toHaveLength(1);
    } finally {
      await moved.close();
    }
  });

  it('an announced permission change closes a revoked editor on another process', async () => {
    const app = await newApp();
    integrator.addUser({ id: 'guest', name: 'Guest', token: 'guest-token' });
    integrator.addFile({ id: 'guarded', type: 'document', grants: { 'user-1': { readable: true, editable: true, manageable: true }, guest: { readable: true, editable: true } } });
    await call(cluster.nodes[0]!, app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'guarded' });
    const guest = await connectEditor({ url: cluster.nodes[2]!.url, sign: () => asApp(cluster.nodes[2]!, app).sign() }, 'guarded', { token: 'guest-token' });
    editors.push(guest);
    integrator.grant('guarded', 'guest', { readable: false, editable: false });
    const announced = await call(cluster.nodes[0]!, app, 'POST', `/sdk/v2/api/license/apps/${app.id}/permission-changes`, { fileIds: ['guarded'] }, { license: true });
    expect(announced.body.status).toBe(0);
    await eventually(() => guest.closes.includes(4403), 'the guest closed with 4403 on process C');
  });

  it('editors on three processes converge after bursts coalesced through Redis; a read-only editor still cannot write', async () => {
    const app = await newApp();
    integrator.addUser({ id: 'viewer', name: 'Viewer', token: 'viewer-token' });
    integrator.addFile({ id: 'bursts', type: 'document', grants: { 'user-1': { readable: true, editable: true }, viewer: { readable: true, editable: false, commentable: false } } });
    await call(cluster.nodes[0]!, app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'bursts' });
    const writers = await Promise.all(Array.from({ length: 12 }, (_, i) => editor(i % 3, app, 'bursts')));
    const viewer = await connectEditor(asApp(cluster.nodes[1]!, app), 'bursts', { token: 'viewer-token' });
    editors.push(viewer);
    expect(viewer.readOnly).toBe(true);
    const items = (doc: Y.Doc) => doc.getArray<string>('items').toArray().filter((item) => item !== 'not allowed').sort();
    // each round, every writer sends 3 updates and moves its cursor in one tick: each process publishes the
    // round's updates merged and its awareness changes once (collaboration-fanout.ts)
    const rounds = 4;
    for (let round = 0; round < rounds; round++) {
      writers.forEach((writer, index) => {
        for (let i = 0; i < 3; i++) writer.doc.getArray<string>('items').push([`${index}-${round}-${i}`]);
        writer.provider.setAwarenessField('cursor', { index, round });
      });
      if (round === 1) viewer.doc.getArray<string>('items').push(['not allowed']);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await Promise.all(writers.map((writer) => writer.saved()));
    const sent = writers.length * rounds * 3;
    await eventually(() => [...writers, viewer].every((each) => items(each.doc).length === sent), 'every editor on every process has every update');
    const reference = items(writers[0]!.doc);
    for (const writer of writers) {
      expect(items(writer.doc)).toEqual(reference);
      expect(writer.doc.getArray<string>('items').toArray()).not.toContain('not allowed');
    }
    expect(items(viewer.doc)).toEqual(reference);
    const lastCursors = (each: Editor) => [...each.provider.awareness!.getStates().values()].filter((state) => (state.cursor as { round?: number } | undefined)?.round === rounds - 1).length;
    await eventually(() => [...writers, viewer].every((each) => lastCursors(each) === writers.length), 'every cursor seen on every process');
    // and what was stored (each update once, by the process that received it)
    const stored = new Y.Doc();
    applyStored(stored, (await new ContentStore(cluster.storage).load(app.id, 'bursts'))!, null, () => undefined);
    expect(stored.getArray<string>('items').toArray().sort()).toEqual(reference);
  });

  it('loses no acknowledged edit when a process is killed during editing', async () => {
    const app = await newApp();
    const victim = await cluster.startNode({ SVC_CONTENT_POLL_MS: '60000', SVC_PERMISSION_CACHE_MS: '600000', SVC_CONTENT_COALESCE_MS: '50' });
    await call(victim, app, 'POST', '/sdk/v2/api/files', { type: 'document', fileId: 'crash' });
    const writer = await connectEditor(asApp(victim, app), 'crash');
    const reader = await editor(0, app, 'crash');
    for (let i = 0; i < 20; i++) writer.doc.getText('probe').insert(writer.doc.getText('probe').length, `${i},`);
    await writer.saved();
    const acknowledged = text(writer);
    await victim.kill();
    await writer.close();
    // the editor reconnects to another process: everything acknowledged is there
    const reconnected = await editor(1, app, 'crash');
    expect(text(reconnected)).toBe(acknowledged);
    await eventually(() => text(reader) === acknowledged, 'the editor on process A has every acknowledged edit');
  });
});
