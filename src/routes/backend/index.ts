import type { FastifyPluginAsync } from 'fastify';
import { useBackendEnvelope } from '../../http/envelopes/backend.js';
import { attachmentRoutes } from './attachments.js';
import { behaviorHistoryRoutes } from './behavior-histories.js';
import { cellAttachmentRoutes } from './cell-attachments.js';
import { cellImageRoutes } from './cell-images.js';
import { collabFileRoutes } from './collab-files.js';
import { conversationRoutes } from './conversations.js';
import { documentMarkdownRoutes } from './document-markdown.js';
import { documentProRoutes } from './documentpro.js';
import { editorSessionRoutes } from './editor-sessions.js';
import { eventAdminRoutes } from './events.js';
import { exportDownloadRoutes, exportRoutes } from './exports.js';
import { fileRoutes } from './files.js';
import { importRoutes } from './imports.js';
import { licenseRoutes } from './license.js';
import { mentionSuggestionRoutes } from './mention-suggestions.js';
import { previewRoutes } from './previews.js';
import { pushRoutes } from './push.js';
import { sheetCellRoutes } from './sheet-cells.js';
import { sheetMergeRoutes } from './sheet-merges.js';
import { sheetSortRoutes } from './sheet-sort.js';
import { sheetValidationRoutes } from './sheet-validation.js';
import { sheetRoutes } from './sheets.js';

/**
 * The backend API (spec 4.1-4.2) under /sdk/v2: the `{status, message, data}` envelope for every answer.
 * Authentication and the rate limit come from the enclosing /sdk/v2 scope (server.ts). Route groups
 * register inside: `/sdk/v2/api/…`, `/sdk/v2/collab-files/…` and `/sdk/v2/attachments/…`.
 */
export const backendApi: FastifyPluginAsync = async (app) => {
  useBackendEnvelope(app);
  await app.register(
    async (api) => {
      await api.register(licenseRoutes);
      await api.register(fileRoutes);
      await api.register(eventAdminRoutes);
      await api.register(documentProRoutes);
      await api.register(sheetRoutes);
      await api.register(sheetCellRoutes);
      await api.register(importRoutes);
      await api.register(exportRoutes);
      await api.register(previewRoutes);
      await api.register(pushRoutes);
      await api.register(behaviorHistoryRoutes);
      await api.register(documentMarkdownRoutes);
      await api.register(cellAttachmentRoutes);
      await api.register(sheetMergeRoutes);
      await api.register(sheetSortRoutes);
      await api.register(sheetValidationRoutes);
      await api.register(cellImageRoutes);
    },
    { prefix: '/api' },
  );
  await app.register(collabFileRoutes, { prefix: '/collab-files' });
  await app.register(conversationRoutes, { prefix: '/collab-files' });
  await app.register(mentionSuggestionRoutes, { prefix: '/collab-files' });
  await app.register(editorSessionRoutes, { prefix: '/collab-files' });
  await app.register(attachmentRoutes, { prefix: '/attachments' });
  await app.register(exportDownloadRoutes, { prefix: '/exports' });
};
