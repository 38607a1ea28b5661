/**
 * What the server tells the editor application when it serves the editor page, as JSON in a
 * `<script type="application/json" id="svc-boot">` element (routes/editor-page/html.ts writes it). The editor (web/shared/boot.ts) imports this type,
 * so keep this file free of runtime imports: it is compiled for Node and for the browser.
 */

/** Languages of the editors; the first is the default (as the public SDK's). */
export const EDITOR_LANGUAGES = ['zh-CN', 'en'] as const;
export type EditorLanguage = (typeof EDITOR_LANGUAGES)[number];

export type EditorFileType = 'document' | 'documentPro' | 'spreadsheet' | 'presentation' | 'table';

export interface EditorPermissions {
  readable: boolean;
  editable: boolean;
  commentable: boolean;
  copyable: boolean;
  exportable: boolean;
  manageable: boolean;
}

/** An editor session ticket as the service hands it to a page (the page's boot, and each renewal). */
export interface EditorSessionTicket {
  ticket: string;
  /** renew before then */
  expiresAt: number;
  /** the signature behind the session expires then: the host must give new credentials before */
  signatureExpiresAt: number;
}

export interface EditorBoot {
  fileId: string;
  fileType: EditorFileType;
  /** the file's name as the integrator gives it (the editor's title) */
  title: string;
  lang: EditorLanguage;
  user: { id: string; name: string; avatar: string };
  permissions: EditorPermissions;
  /**
   * The page's editor session (docs/SDK.md "Sessions without tokens in URLs"): a short-lived ticket for this
   * user on this file that the page calls the service with, in place of the signature and token it was opened
   * with (which the page never sees). Times in ms since the epoch.
   */
  session: EditorSessionTicket;
  /** the SDK instance's channel id (`uuid`), absent when the page is opened on its own */
  channel: string | null;
  /** messages older than this are dropped, ms */
  messageExpires: number;
  /** base path of the service's routes for this page, e.g. `/sdk/v2` */
  apiBase: string;
  /** `smParams` of the iframe URL as sent (the link's context, opaque to the service), or null */
  smParams: string | null;
  /** `deviceMode` of the iframe URL, when sent */
  deviceMode: string | null;
  /** `userUuid` of the iframe URL, when sent */
  userUuid: string | null;
  /** the lines of this user's watermark drawn over the editor (src/model/watermark.ts); empty: none */
  watermark: string[];
}
