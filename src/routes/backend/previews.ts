import { Type } from '@sinclair/typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { Errors } from '../../errors.js';
import { toApiError } from '../../http/error-mapping.js';
import { frameAncestors } from '../../http/frame-ancestors.js';
import { callerOf } from '../../http/request-context.js';
import { pageLanguage } from '../editor-page/languages.js';
import { renderPreviewError, renderPreviewPage, type ViewerPage } from '../preview-page/html.js';
import { FileIdParams } from './files.js';

/**
 * The viewer's headers: never cached (the query carries credentials), no referrer, framed only by the app's host
 * origins (as the editor page), nothing loaded from anywhere: the page is self-contained (data: images, srcdoc frames).
 */
function sendViewer(reply: FastifyReply, page: ViewerPage, ancestors: string): FastifyReply {
  return reply
    .type('text/html; charset=utf-8')
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      [
        "default-src 'none'",
        `script-src ${page.scriptSources}`,
        "style-src 'unsafe-inline'",
        'img-src data:',
        "frame-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        `frame-ancestors ${ancestors}`,
      ].join('; '),
    )
    .send(page.html);
}

const PageQuery = Type.Object({
  signature: Type.Optional(Type.String()),
  token: Type.Optional(Type.String()),
  lang: Type.Optional(Type.String({ maxLength: 35 })),
});

/**
 * Preview of non-collaborative files (spec 4.2 "Preview", contract notes 3; docs/IMPORT-EXPORT.md "Preview"),
 * under /sdk/v2/api. The application is known by its signature (header or `?signature=`), which both calls
 * need; the token is optional: with one, the integrator's read permission of the user applies.
 */
export const previewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;

  app.post(
    '/cloud-files/:fileId/create',
    {
      config: { auth: 'app', browser: true },
      schema: {
        tags: ['preview'],
        summary: 'Create the preview cache of a preview file',
        description:
          "Asks the integrator's `/files/{fileId}` (with the token when one is sent, then `readable` is required; as the application " +
          'otherwise) for the file (`type: "file"`, `downloadUrl`, `ext`) and builds its preview in the background; open ' +
          '`cloud-files/{fileId}/page` to see it (it shows progress until it is ready). Answers `{code: 0, message}` at once. ' +
          'Not a preview file: 400 / 123002. See docs/IMPORT-EXPORT.md "Preview".',
        params: FileIdParams,
        response: { 200: Type.Object({ code: Type.Integer(), message: Type.String() }) },
      },
    },
    async (request) => {
      await services.previews.create(callerOf(request), request.params.fileId);
      return { code: 0, message: 'success' };
    },
  );

  const viewer: FastifyPluginAsyncTypebox = async (pages) => {
    // the viewer is an HTML page: its errors are pages too (code and message), with its headers
    pages.setErrorHandler((error: unknown, request: FastifyRequest, reply: FastifyReply) => {
      const apiError = toApiError(error, request);
      if (apiError.spec.http >= 500) request.log.error({ err: error }, 'preview page failed');
      const query = (request.query ?? {}) as Record<string, unknown>;
      const lang = pageLanguage(typeof query.lang === 'string' ? query.lang : undefined, request.headers['accept-language']);
      const ancestors = request.auth ? frameAncestors(request.auth.app) : '*';
      return sendViewer(reply.status(apiError.spec.http).header('x-request-id', request.id), renderPreviewError(lang, apiError.spec.code, apiError.message), ancestors);
    });

    pages.get(
      '/cloud-files/:fileId/page',
      {
        config: { auth: 'app', invalidRequest: Errors.invalidRequest },
        schema: {
          tags: ['preview'],
          summary: 'Preview page (HTML) of a preview file',
          description:
            'An HTML viewer (not an envelope) of the preview made by `cloud-files/{fileId}/create`: pages (sheets, slides, the ' +
            'document) with page navigation and zoom, or the image. While it is built: a page that refreshes itself; when it ' +
            'failed: a page with the code. Never created: 404 / 123003. With a token, `readable` is required. ' +
            'Sends Cache-Control: no-store, Referrer-Policy: no-referrer and a frame-ancestors policy.',
          params: FileIdParams,
          querystring: PageQuery,
          produces: ['text/html'],
        },
      },
      async (request, reply) => {
        const auth = callerOf(request);
        const lang = pageLanguage(request.query.lang, request.headers['accept-language']);
        const preview = await services.previews.preview(auth, request.params.fileId);
        return sendViewer(reply, renderPreviewPage(lang, preview), frameAncestors(auth.app));
      },
    );
  };
  await app.register(viewer);
};
