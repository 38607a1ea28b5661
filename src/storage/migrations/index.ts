import type { Migration } from 'kysely';
import { foundation } from './0001-foundation.js';
import { integrator } from './0002-integrator.js';
import { tables } from './0003-tables.js';
import { content } from './0004-content.js';
import { conversations } from './0005-conversations.js';
import { frameOrigins } from './0007-frame-origins.js';
import { attachments } from './0008-attachments.js';
import { seatPolicy } from './0009-seats-security-seat-policy.js';
import { recordedSeq } from './0010-seats-security-recorded-seq.js';
import { tasks } from './0011-tasks-import-tasks.js';
import { exportFiles } from './0012-export-files.js';
import { behaviorHistories } from './0013-behavior-histories.js';
import { tableLinks } from './0014-table-links.js';
import { processInstances } from './0015-process-instances.js';
import { editorSessions } from './0016-editor-sessions.js';
import { suggestionNotices } from './0017-suggestion-notices.js';
import { tableViews } from './0018-table-views.js';

/**
 * Every migration, in order. Names sort lexically; a new feature adds its file and one line here. (There is no
 * 0006: the attachments migration was renumbered 0008 when it merged after 0007-frame-origins, so that a database
 * migrated in between never sees one arrive out of order.)
 * Migrations are imported (not read from a folder) so the same list runs under tsx, vitest and the build.
 */
export const migrations: Record<string, Migration> = {
  '0001-foundation': foundation,
  '0002-integrator': integrator,
  '0003-tables': tables,
  '0004-content': content,
  '0005-conversations': conversations,
  '0007-frame-origins': frameOrigins,
  '0008-attachments': attachments,
  '0009-seats-security-seat-policy': seatPolicy,
  '0010-seats-security-recorded-seq': recordedSeq,
  '0011-tasks-import-tasks': tasks,
  '0012-export-files': exportFiles,
  '0013-behavior-histories': behaviorHistories,
  '0014-table-links': tableLinks,
  '0015-process-instances': processInstances,
  '0016-editor-sessions': editorSessions,
  '0017-suggestion-notices': suggestionNotices,
  '0018-table-views': tableViews,
};
