import { Type, type Static } from '@sinclair/typebox';
import { htmlPageHeaders } from '../../http/html-page.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { PartContent, PreviewPart, ViewLink } from '../../domain/preview/preview-service.js';
import { fontFile } from '../../domain/export/render/fonts.js';
import { ApiError, Errors } from '../../errors.js';
import { toApiError } from '../../http/error-mapping.js';
import { frameAncestors } from '../../http/frame-ancestors.js';
import { callerOf } from '../../http/request-context.js';
import { previewViewerScript } from '../editor-page/assets.js';
import { pageLanguage } from '../editor-page/languages.js';
import { renderPreviewError, renderPreviewPage, type ViewerPage } from '../preview-page/html.js';
import { FileIdParams } from './files.js';

/**
 * The viewer's headers: never cached (the query carries credentials), no referrer, framed only by the app's host
 * origins (as the editor page). Its script comes from the browser build and its parts from this service's own
 * links (`view/…`); nothing inline runs and nothing is loaded from elsewhere.
 */
function sendViewer(reply: FastifyReply, page: ViewerPage, ancestors: string): FastifyReply {
  const sources = page.script ? ["script-src 'self'", "worker-src 'self'", "connect-src 'self'", "img-src 'self'", "frame-src 'self'"] : ["script-src 'none'"];
  return htmlPageHeaders(reply, ["default-src 'none'", ...sources, "style-src 'unsafe-inline'", "base-uri 'none'", "form-action 'none'", `frame-ancestors ${ancestors}`]).send(
    page.html,
  );
}

/** The links of a viewer to its preview's parts, relative to the page (`cloud-files/{fileId}/page`). */
function partLinks(link: ViewLink): (part: PreviewPart) => string {
  const query = new URLSearchParams({ app: link.appId, task: link.taskId, expires: String(link.expiresAt), sig: link.signature }).toString();
  return (part) => (part.part === 'file' ? `view/file?${query}` : `view/pages/${part.page}?${query}`);
}

/**
 * A part's headers. Its link names one built preview, which never changes, so the browser may keep it until the
 * link expires (private: it is one application's file). A rendered page is a sandboxed document without scripts
 * (the viewer's frame sandboxes it too), framed only by the viewer, itself framed by the app's host origins.
 */
function sendPart(reply: FastifyReply, part: PartContent, expiresAt: number, ancestors: string): FastifyReply {
  const maxAge = Math.max(0, Math.floor((expiresAt - Date.now()) / 1000));
  const policy = part.html
    ? ["sandbox allow-same-origin", "default-src 'none'", "style-src 'unsafe-inline'", 'img-src data:', "font-src 'self'", "base-uri 'none'", "form-action 'none'", `frame-ancestors 'self' ${ancestors}`]
    : ["default-src 'none'", 'sandbox'];
  return reply
    .type(part.mimeType)
    .header('cache-control', `private, max-age=${maxAge}, immutable`)
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('cross-origin-resource-policy', 'same-origin')
    .header('content-security-policy', policy.join('; '))
    .send(part.data);
}

const ViewQuery = Type.Object({
  app: Type.String({ minLength: 1, maxLength: 64, description: 'the application the viewer page was opened for' }),
  task: Type.String({ minLength: 1, maxLength: 64, description: 'the built preview' }),
  expires: Type.Integer({ minimum: 0, description: 'epoch ms after which the link is refused (410 / 123006)' }),
  sig: Type.String({ minLength: 1, maxLength: 100, description: "HMAC-SHA256 of the above with the application's secret" }),
});

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

  app.get(
    '/preview-fonts/:file',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['preview'],
        summary: "A font file of the viewer's pages",
        description:
          'The Noto Sans SC subsets (woff2) the rendered pages of a preview name in their @font-face rules, so Chinese shows on a ' +
          'machine without CJK fonts, as in exports. Public (it is the font package), cached a day; an unknown name: 404 / 40400.',
        params: Type.Object({ file: Type.String({ pattern: '^noto-sans-sc-[\\w-]+\\.woff2$', maxLength: 100 }) }),
        response: { 200: { description: 'the font', content: { 'font/woff2': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } } } },
      },
    },
    async (request, reply) => {
      const font = fontFile(request.params.file);
      if (!font) throw new ApiError(Errors.routeNotFound, `no font ${request.params.file}`);
      return reply.type('font/woff2').header('cache-control', 'public, max-age=86400').header('x-content-type-options', 'nosniff').header('cross-origin-resource-policy', 'same-origin').send(font);
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
        const script = previewViewerScript();
        if (preview.state === 'ready' && !script) throw new ApiError(Errors.unavailable, 'the browser side is not built: run npm run build');
        const links = preview.state === 'ready' ? partLinks(preview.link) : () => '';
        // a viewer opened with a user's token shows that user's watermark; opened as the application, none
        const watermark = preview.state === 'ready' && auth.token !== undefined ? await services.access.watermark(auth, (await services.access.currentUser(auth)).id) : [];
        return sendViewer(reply, renderPreviewPage(lang, preview, script ?? '', links, watermark), frameAncestors(auth.app));
      },
    );

    const partDescription =
      'Opened by the viewer page, not by integrators: the link is one the page made (query `app`, `task`, `expires`, `sig`), ' +
      'valid 30 minutes; no signature or token (the page checked them). A query out of shape: 400 / 40000; altered or not made for this file: 403 / 123005; ' +
      'expired: 410 / 123006 (reload the page); the preview is gone: 404 / 123003. Private cache until the link expires, ' +
      '`nosniff`, `Cross-Origin-Resource-Policy: same-origin`. See docs/IMPORT-EXPORT.md "Preview".';
    const partOf = async (fileId: string, query: Static<typeof ViewQuery>, wanted: PreviewPart) => {
      const grant = { appId: query.app, fileId, taskId: query.task, expiresAt: query.expires };
      const part = await services.previews.part(grant, query.sig, wanted);
      const app = await services.apps.find(query.app);
      return { part, ancestors: app ? frameAncestors(app) : "'none'" };
    };

    pages.get(
      '/cloud-files/:fileId/view/file',
      {
        config: { auth: 'none', invalidRequest: Errors.invalidRequest },
        schema: {
          tags: ['preview'],
          summary: "A preview's file (image or pdf), for its viewer",
          description: `The image or the pdf as downloaded, with its Content-Type (image/png, image/jpeg, image/gif, image/webp, application/pdf). ${partDescription}`,
          params: FileIdParams,
          querystring: ViewQuery,
          produces: ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf'],
          response: { 200: { description: 'the file', content: { 'application/octet-stream': { schema: Type.Unsafe<Buffer>({ type: 'string', format: 'binary' }) } } } },
        },
      },
      async (request, reply) => {
        const { part, ancestors } = await partOf(request.params.fileId, request.query, { part: 'file' });
        return sendPart(reply, part, request.query.expires, ancestors);
      },
    );

    pages.get(
      '/cloud-files/:fileId/view/pages/:page',
      {
        config: { auth: 'none', invalidRequest: Errors.invalidRequest },
        schema: {
          tags: ['preview'],
          summary: "A rendered page of a preview (a document, a sheet, a slide), for its viewer's frame",
          description: `A self-contained HTML document (export HTML converter), served with a Content-Security-Policy \`sandbox\` without scripts. ${partDescription}`,
          params: Type.Intersect([FileIdParams, Type.Object({ page: Type.Integer({ minimum: 1, description: '1-based' }) })]),
          querystring: ViewQuery,
          produces: ['text/html'],
        },
      },
      async (request, reply) => {
        const { part, ancestors } = await partOf(request.params.fileId, request.query, { part: 'page', page: request.params.page });
        return sendPart(reply, part, request.query.expires, ancestors);
      },
    );
  };
  await app.register(viewer);
};
