import { Type } from '@sinclair/typebox';
import { htmlPageHeaders } from '../../http/html-page.js';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signatureExpiry } from '../../auth/session-tickets.js';
import { verifySignature } from '../../auth/signature.js';
import { FILE_ID_PATTERN } from '../../domain/files/file-service.js';
import { ApiError, Errors } from '../../errors.js';
import { toApiError } from '../../http/error-mapping.js';
import { frameAncestors } from '../../http/frame-ancestors.js';
import type { Permission } from '../../integrator/types.js';
import { hasEditor, pageAssets } from './assets.js';
import type { EditorBoot, EditorFileType, EditorPermissions } from '../../model/editor-boot.js';
import { renderEditorPage, renderErrorPage } from './html.js';
import { pageLanguage } from './languages.js';
import { loadingScreen, startParams } from './page-options.js';
import type { OutsideImagesMode } from '../../domain/import/outside-images.js';

/** Messages between the SDK and the page older than this are dropped (the public SDK's default). */
const DEFAULT_MESSAGE_EXPIRES_MS = 5 * 60 * 1000;
/** Longest query value kept for the page (smParams, userUuid, …); longer ones are dropped. */
const MAX_PASSED_VALUE = 4096;

const PageQuery = Type.Object(
  {
    token: Type.Optional(Type.String()),
    signature: Type.Optional(Type.String()),
    lang: Type.Optional(Type.String()),
    uuid: Type.Optional(Type.String({ description: 'the SDK instance: its messages carry this channel id' })),
    userUuid: Type.Optional(Type.String()),
    smParams: Type.Optional(Type.String({ description: 'context of the link that opened the file (opaque to the service)' })),
    deviceMode: Type.Optional(Type.String()),
    jsver: Type.Optional(Type.String({ description: 'version of the SDK that made the URL' })),
    loadingEffect: Type.Optional(Type.String({ description: '`true`: show a loading screen until the editor is ready' })),
    loadingOptions: Type.Optional(Type.String({ description: 'JSON `{logo?: string | false, tip?: string}` of the loading screen' })),
    messageExpires: Type.Optional(Type.String()),
  },
  { additionalProperties: true },
);

function passed(value: unknown): string | null {
  return typeof value === 'string' && value.length > 0 && value.length <= MAX_PASSED_VALUE ? value : null;
}

/** Channel ids the SDK makes are short random tokens; anything else is not one of ours. */
function channelOf(value: unknown): string | null {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{1,128}$/.test(value) ? value : null;
}

function messageExpiresOf(value: unknown): number {
  const ms = typeof value === 'string' ? Number(value) : NaN;
  return Number.isInteger(ms) && ms >= 1000 && ms <= 24 * 3600 * 1000 ? ms : DEFAULT_MESSAGE_EXPIRES_MS;
}

/**
 * Where the page may load images from: the service alone (its attachments; data: and blob: for what the
 * editor draws itself), so that no image in a document can tell an outside server who reads it (docs/ATTACHMENTS.md
 * "Outside images"); any http(s) address when the operator allows outside images (SVC_OUTSIDE_IMAGES=allow).
 * `logo`: the loading screen's logo, which the integrator chose (its origin only).
 */
function imageSources(outsideImages: OutsideImagesMode, logo: string | null): string {
  const sources = ["'self'", 'data:', 'blob:'];
  if (outsideImages === 'allow') sources.push('https:', 'http:');
  else if (logo !== null && URL.canParse(logo)) {
    const { protocol, origin } = new URL(logo);
    if (protocol === 'http:' || protocol === 'https:') sources.push(origin);
  }
  return `img-src ${sources.join(' ')}`;
}

/**
 * Headers of every editor page, the error page included: never cached (it carries the user's credentials),
 * no referrer leaves it, and only the application's host origins may frame it (`ancestors`, from
 * frameAncestors(app); any origin for an error page whose application is not known).
 */
function pageHeaders(reply: FastifyReply, ancestors: string, images: string): void {
  htmlPageHeaders(reply, [
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self' 'unsafe-inline'",
    images,
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors}`,
  ]);
}

/**
 * The editor page (browser-sdk.md "The iframe"): `GET /sdk/v2/collab-files/{fileId}` with the SDK's query
 * answers an HTML application that opens the editor of the file's kind, or an error page in the page's
 * language carrying the code. Signature and token are checked as on the backend API; the integrator says who
 * the user is and what they may do.
 */
export const editorPage: FastifyPluginAsyncTypebox = async (app) => {
  const { services } = app;
  /** The frame-ancestors of a request's application once its signature is verified, for its error page too. */
  const ancestorsOf = new WeakMap<FastifyRequest, string>();
  const fail = (error: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const apiError = toApiError(error, request);
    if (apiError.spec.http >= 500) request.log.error({ err: error }, 'editor page failed');
    const query = (request.query ?? {}) as Record<string, unknown>;
    const lang = pageLanguage(typeof query.lang === 'string' ? query.lang : undefined, request.headers['accept-language']);
    pageHeaders(reply, ancestorsOf.get(request) ?? '*', imageSources(services.config.outsideImages, null));
    return reply
      .status(apiError.spec.http)
      .header('x-request-id', request.id)
      .send(renderErrorPage({ lang, error: apiError, channel: channelOf(query.uuid), messageExpires: messageExpiresOf(query.messageExpires) }, pageAssets()));
  };
  app.setErrorHandler(fail);

  app.get(
    '/sdk/v2/collab-files/:fileId',
    {
      config: { auth: 'none' },
      schema: {
        tags: ['editor'],
        summary: 'Editor page (HTML) of a collaborative file',
        description:
          'The page the JS SDK opens in its iframe (README "Editors and the JS SDK"). Answers HTML, not an envelope: the editor of the ' +
          "file's kind, or an error page carrying the code (401 signature/token, 403 no `readable`, 404 unknown file, 400 / 40000 " +
          'an `smParams` or `loadingOptions` the page cannot take: see docs/SDK.md). ' +
          'Sends Cache-Control: no-store, Referrer-Policy: no-referrer and a frame-ancestors policy. The page carries neither the ' +
          'token nor the signature: it holds a short-lived editor session ticket instead (docs/SDK.md "Sessions without tokens in ' +
          'URLs") and removes both from its address as it loads.',
        params: Type.Object({ fileId: Type.String({ pattern: FILE_ID_PATTERN }) }),
        querystring: PageQuery,
        produces: ['text/html'],
      },
    },
    async (request, reply) => {
      const { query } = request;
      const lang = pageLanguage(query.lang, request.headers['accept-language']);
      // the query's own refusals come first: they are the link's fault, whoever the user is
      const smParams = startParams(query.smParams);
      const loading = loadingScreen(query.loadingEffect, query.loadingOptions);
      const verified = await verifySignature(passed(query.signature) ?? undefined, (id) => services.apps.find(id), {
        license: false,
        maxLifetimeSeconds: services.config.signatureMaxLifetimeSeconds,
      });
      ancestorsOf.set(request, frameAncestors(verified.app));
      const token = passed(query.token);
      if (token === null) throw new ApiError(Errors.tokenMissing, 'user token missing: the page needs ?token=');
      const file = await services.files.get(verified.app.id, request.params.fileId);
      const fileType: EditorFileType = file.type;
      const auth = { app: verified.app, claims: verified.claims, token, requestId: request.id };
      const { user, file: metadata } = await services.access.authorize(auth, file.fileId, 'readable');
      if (!hasEditor(fileType)) throw new ApiError(Errors.fileTypeUnsupported, `files of type ${fileType} have no browser editor yet`);
      const assets = pageAssets(fileType);
      if (!assets) throw new ApiError(Errors.unavailable, 'the browser side is not built: run npm run build');
      const granted = (permission: Permission) => metadata.permissions[permission] === true;
      const permissions: EditorPermissions = {
        readable: true,
        editable: granted('editable'),
        commentable: granted('commentable'),
        copyable: granted('copyable'),
        exportable: granted('exportable'),
        manageable: granted('manageable'),
      };
      const boot: EditorBoot = {
        fileId: file.fileId,
        fileType,
        title: metadata.name,
        lang,
        user: { id: user.id, name: user.name, avatar: user.avatar ?? '' },
        permissions,
        session: await services.sessionTickets.issue({
          appId: verified.app.id,
          fileId: file.fileId,
          userId: user.id,
          token,
          claims: verified.claims,
          signatureExpiresAt: signatureExpiry(verified.claims),
        }),
        channel: channelOf(query.uuid),
        messageExpires: messageExpiresOf(query.messageExpires),
        apiBase: '/sdk/v2',
        smParams,
        deviceMode: passed(query.deviceMode),
        userUuid: passed(query.userUuid),
        watermark: await services.access.watermark(auth, user.id),
      };
      pageHeaders(reply, frameAncestors(verified.app), imageSources(services.config.outsideImages, loading?.logo ?? null));
      return reply.send(renderEditorPage(boot, assets, loading));
    },
  );
};
