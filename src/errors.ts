/**
 * The one catalogue of errors the service answers with. Domain code throws `ApiError`s built from these
 * entries; each route group's envelope (backend `{status, message, data}`, table `{code, message}`)
 * renders them. docs/ERRORS.md lists the same table for integrators: keep the two in step.
 *
 * `code` is the backend API `status`; `tableCode` is the table API `code` where it differs
 * (`'unauthorized'` renders the table API's bare `{"error":"Unauthorized"}`).
 */
export interface ErrorSpec {
  readonly http: number;
  readonly code: number;
  readonly tableCode?: number | 'unauthorized';
  /** HTTP status on the table API where it differs from `http` (spec 7.2 answers some with 400). */
  readonly tableHttp?: number;
}

export const Errors = {
  // General request errors (our own family: HTTP status × 100).
  invalidRequest: { http: 400, code: 40000, tableCode: 70000 },
  routeNotFound: { http: 404, code: 40400, tableCode: 40400 },
  bodyTooLarge: { http: 413, code: 41300, tableCode: 70012, tableHttp: 400 },
  unsupportedMediaType: { http: 415, code: 41500, tableCode: 70000, tableHttp: 400 },
  uriTooLong: { http: 414, code: 41400, tableCode: 70000, tableHttp: 400 },
  rateLimited: { http: 429, code: 42900, tableCode: 42900 },
  internal: { http: 500, code: 50000, tableCode: 10000 },
  unavailable: { http: 503, code: 50300, tableCode: 10000 },

  // Integrator endpoint (spec 7.1 family 10001-10015).
  invalidEndpointUrl: { http: 400, code: 10001, tableCode: 70000 },
  // Callback failures (contract notes 5). The integrator is a dependency of ours: its faults answer 424/502,
  // never 500. A file it does not know is a missing file (404); a token it refuses is unauthenticated (401).
  integratorEndpointMissing: { http: 424, code: 10001, tableCode: 10000 },
  integratorFileNotFound: { http: 404, code: 10002, tableCode: 70001 },
  integratorTokenRejected: { http: 401, code: 10003, tableCode: 20000 },
  integratorUserNotFound: { http: 404, code: 10004, tableCode: 10000 },
  integratorUserListNotFound: { http: 502, code: 10005, tableCode: 10000 },
  integratorCollaboratorsNotFound: { http: 502, code: 10006, tableCode: 10000 },
  integratorRecentUsersNotFound: { http: 502, code: 10007, tableCode: 10000 },
  integratorRecentFilesNotFound: { http: 502, code: 10008, tableCode: 10000 },
  integratorHttpError: { http: 502, code: 10009, tableCode: 10000 },
  integratorUnexpectedStatus: { http: 502, code: 10010, tableCode: 10000 },
  integratorInvalidJson: { http: 502, code: 10011, tableCode: 10000 },
  integratorMalformedFile: { http: 502, code: 10012, tableCode: 10000 },
  integratorUnknownFileType: { http: 502, code: 10013, tableCode: 10000 },
  integratorMalformedUser: { http: 502, code: 10014, tableCode: 10000 },
  integratorUnreachable: { http: 502, code: 10015, tableCode: 10000 },
  integratorTimeout: { http: 408, code: 10015, tableCode: 70006 },

  // Application management (spec 7.1 family 20001-20005).
  invalidAppUpdate: { http: 400, code: 20003, tableCode: 70000 },
  appNotFound: { http: 404, code: 20005, tableCode: 70001 },
  unknownApp: { http: 401, code: 20005, tableCode: 'unauthorized' },
  memberLimitReached: { http: 409, code: 20010, tableCode: 70000 },
  /** the app's seat policy (auto, strict) does not admit the user: disabled, not activated, or beyond the member limit */
  seatRequired: { http: 403, code: 20011, tableCode: 20000 },

  // Signature and token (spec 7.1 family 30001-30008).
  signatureMissing: { http: 401, code: 30001, tableCode: 'unauthorized' },
  signatureMalformed: { http: 401, code: 30002, tableCode: 'unauthorized' },
  signatureInvalid: { http: 401, code: 30003, tableCode: 'unauthorized' },
  signatureExpired: { http: 401, code: 30004, tableCode: 'unauthorized' },
  licenseScopeRequired: { http: 403, code: 30005, tableCode: 20000 },
  licenseSignatureTooLong: { http: 403, code: 30006, tableCode: 20000 },
  tokenMissing: { http: 401, code: 30007, tableCode: 'unauthorized' },
  appExpired: { http: 403, code: 30008, tableCode: 20000 },

  // Collaborative files (contract notes 5, backend 70001-70020).
  invalidFileParams: { http: 400, code: 70001, tableCode: 70000 },
  fileTypeNotAvailable: { http: 400, code: 70003, tableCode: 70000 },
  fileExists: { http: 409, code: 70012, tableCode: 70000 },
  fileNotFound: { http: 404, code: 70013, tableCode: 70001 },

  // Table data API (spec 7.2); the backend codes are our own (HTTP status × 100 + n).
  tableNotFound: { http: 404, code: 40402, tableCode: 70002 },
  viewNotFound: { http: 404, code: 40403, tableCode: 70003 },
  columnNotFound: { http: 400, code: 40004, tableCode: 70004 },
  rowNotFound: { http: 404, code: 40405, tableCode: 70005 },

  // Permissions decided by the integrator (our own family).
  permissionDenied: { http: 403, code: 40300, tableCode: 20000 },

  // Event delivery administration (our own family).
  eventNotFound: { http: 404, code: 40410, tableCode: 40400 },

  // Collaborative content (docs/CONTENT-MODEL.md): our picks inside the 70001-70020 and 60010-60014 families.
  fileTypeUnsupported: { http: 400, code: 70004, tableCode: 70000 },
  bookmarkNotFound: { http: 404, code: 70014, tableCode: 70000 },
  invalidContentParams: { http: 400, code: 70002, tableCode: 70000 },
  revisionNotFound: { http: 404, code: 60010, tableCode: 70000 },
  historyNotFound: { http: 404, code: 60011, tableCode: 70000 },
  invalidRevisionParams: { http: 400, code: 60012, tableCode: 70000 },
  historyContentNotKept: { http: 410, code: 60013, tableCode: 70000 },
  upgradeRequired: { http: 426, code: 42600, tableCode: 70000 },

  // Spreadsheet values API (our own family 72000-72099, beside the collaborative-file codes; docs/SHEETS.md).
  invalidSheetParams: { http: 400, code: 72000, tableCode: 70000 },
  invalidSheetRange: { http: 400, code: 72001, tableCode: 70000 },
  sheetNotFound: { http: 404, code: 72002, tableCode: 40400 },
  sheetValuesInvalid: { http: 400, code: 72003, tableCode: 70000 },
  sheetValuesOutOfRange: { http: 400, code: 72004, tableCode: 70000 },
  sheetLimitExceeded: { http: 400, code: 72005, tableCode: 70000 },
  sheetRangeTooLarge: { http: 400, code: 72006, tableCode: 70000 },
  invalidSheetName: { http: 400, code: 72007, tableCode: 70000 },
  sheetExists: { http: 409, code: 72008, tableCode: 70000 },
  sheetRowOutOfRange: { http: 400, code: 72009, tableCode: 70000 },
  notASpreadsheet: { http: 400, code: 72010, tableCode: 70000 },
  appendRequestReused: { http: 409, code: 72011, tableCode: 70000 },
  formulaTooLong: { http: 400, code: 72012, tableCode: 70000 },
  // 1281xx: formulas (docs/FORMULAS.md).
  formulaInvalid: { http: 400, code: 128100, tableCode: 70000 },
  // The kits' newer spreadsheet calls (issue 22 point 5; 1260xx: cell attributes).
  cellAttributesInvalid: { http: 400, code: 126001, tableCode: 70000 },
  cellAttributesRangeTooLarge: { http: 400, code: 126002, tableCode: 70000 },
  sheetMentionNotFound: { http: 404, code: 126003, tableCode: 70001 },

  // Comments, discussions and mentions (our own family 74000-74099; docs/CONVERSATIONS.md).
  invalidConversationParams: { http: 400, code: 74000, tableCode: 70000 },
  selectionNotFound: { http: 400, code: 74001, tableCode: 70000 },
  conversationItemNotFound: { http: 404, code: 74002, tableCode: 70000 },
  mentionedUserUnknown: { http: 400, code: 74003, tableCode: 70000 },
  commentDeleted: { http: 404, code: 74004, tableCode: 70000 },
  threadClosed: { http: 409, code: 74005, tableCode: 70000 },
  // Never an answer's status: carried as `selection.damaged` of the one thread whose stored anchor cannot be read,
  // so that the rest of the list (and the thread's comments) still answer.
  selectionDamaged: { http: 500, code: 74006, tableCode: 70000 },

  // Images and attachments (our own family 75000-75099; docs/ATTACHMENTS.md).
  invalidAttachmentParams: { http: 400, code: 75000, tableCode: 70000 },
  attachmentTooLarge: { http: 413, code: 75001, tableCode: 70012 },
  attachmentTypeNotAllowed: { http: 415, code: 75002, tableCode: 70000 },
  attachmentTokenInvalid: { http: 401, code: 75003, tableCode: 'unauthorized' },
  attachmentNotFound: { http: 404, code: 75004, tableCode: 70000 },

  // Asynchronous tasks (12xxxx import-export family, contract notes 5; docs/TASKS.md). 1200xx: the engine.
  taskNotFound: { http: 404, code: 120001, tableCode: 70000 },
  taskTimedOut: { http: 500, code: 120002, tableCode: 10000 },
  taskInterrupted: { http: 500, code: 120003, tableCode: 10000 },
  taskFailed: { http: 500, code: 120004, tableCode: 10000 },
  // 1210xx: import (docs/IMPORT-EXPORT.md). On the request (HTTP status) or recorded on the task.
  importInvalidParams: { http: 400, code: 121001, tableCode: 70000 },
  importFormatUnsupported: { http: 400, code: 121002, tableCode: 70000 },
  importTooLarge: { http: 413, code: 121003, tableCode: 70012 },
  importArchiveRefused: { http: 400, code: 121004, tableCode: 70000 },
  importCorrupt: { http: 400, code: 121005, tableCode: 70000 },
  importPasswordProtected: { http: 400, code: 121006, tableCode: 70000 },
  importComponentMissing: { http: 501, code: 121007, tableCode: 70000 },
  importUrlUnreachable: { http: 502, code: 121008, tableCode: 10000 },
  importUrlTimeout: { http: 504, code: 121009, tableCode: 10000 },
  importUrlForbidden: { http: 400, code: 121010, tableCode: 70000 },
  importContentTooComplex: { http: 400, code: 121011, tableCode: 70000 },
  importConverterFailed: { http: 500, code: 121012, tableCode: 10000 },
  // 1220xx: export (docs/IMPORT-EXPORT.md "Export"). On the request (HTTP status) or recorded on the task.
  exportInvalidParams: { http: 400, code: 122001, tableCode: 70000 },
  exportTypeUnsupported: { http: 400, code: 122002, tableCode: 70000 },
  exportComponentMissing: { http: 501, code: 122003, tableCode: 70000 },
  exportTooLarge: { http: 400, code: 122004, tableCode: 70000 },
  exportConverterFailed: { http: 500, code: 122005, tableCode: 10000 },
  exportLinkInvalid: { http: 403, code: 122006, tableCode: 20000 },
  exportLinkExpired: { http: 410, code: 122007, tableCode: 70000 },
  // 1230xx: preview of non-collaborative files (docs/IMPORT-EXPORT.md "Preview").
  previewFormatUnsupported: { http: 400, code: 123001, tableCode: 70000 },
  previewNotAPreviewFile: { http: 400, code: 123002, tableCode: 70000 },
  previewNotCreated: { http: 404, code: 123003, tableCode: 70000 },
  previewTooManyPages: { http: 400, code: 123004, tableCode: 70000 },
  previewLinkInvalid: { http: 403, code: 123005, tableCode: 20000 },
  previewLinkExpired: { http: 410, code: 123006, tableCode: 70000 },
  // 1240xx: push to open editors and reported events (docs/PUSH-AND-EVENTS.md).
  pushInvalidParams: { http: 400, code: 124001, tableCode: 70000 },
  pushMessageTooLarge: { http: 413, code: 124002, tableCode: 70012 },
  pushNoOpenEditors: { http: 404, code: 124003, tableCode: 70000 },
  reportInvalidParams: { http: 400, code: 124010, tableCode: 70000 },
  reportTooManyEvents: { http: 400, code: 124011, tableCode: 70000 },
  reportUnknownEventType: { http: 400, code: 124012, tableCode: 70000 },
  reportEventFieldMissing: { http: 400, code: 124013, tableCode: 70000 },
  // 1250xx: behavior history (docs/BEHAVIOR-HISTORY.md).
  invalidBehaviorHistoryParams: { http: 400, code: 125000, tableCode: 70000 },
  behaviorHistoryNotFound: { http: 404, code: 125001, tableCode: 70000 },
  behaviorHistoryUserUnknown: { http: 400, code: 125002, tableCode: 70000 },
  // 1251xx: the kits' newer document calls (docs/CLIENT-KITS.md "Newer calls").
  invalidComposeParams: { http: 400, code: 125100, tableCode: 70000 },
  // 1261xx: merged cells (docs/SHEETS.md "Merged cells").
  invalidMergeParams: { http: 400, code: 126100, tableCode: 70000 },
  mergeOutsideSheet: { http: 400, code: 126101, tableCode: 70000 },
  mergeOverlaps: { http: 409, code: 126102, tableCode: 70000 },
  // 1262xx: images in spreadsheet cells (docs/SHEETS.md "Images in cells").
  invalidCellImageParams: { http: 400, code: 126200, tableCode: 70000 },
  cellImageUrlForbidden: { http: 400, code: 126201, tableCode: 70000 },
  cellImageUrlUnreachable: { http: 502, code: 126202, tableCode: 10000 },
  cellImageUrlTimeout: { http: 504, code: 126203, tableCode: 10000 },
  // 1282xx: sort and filter, conditional formats, validation of spreadsheets (docs/SHEETS.md "Sort and filter").
  invalidSortParams: { http: 400, code: 128200, tableCode: 70000 },
  sortRangeMerged: { http: 409, code: 128201, tableCode: 70000 },
  sortRangeTooLarge: { http: 400, code: 128202, tableCode: 70000 },
  rangeLocked: { http: 403, code: 128300, tableCode: 70000 },
  // 1284xx: data validation of spreadsheets (docs/SHEETS.md "Data validation").
  /** a write puts a value a `stop` rule refuses into a cell: nothing of the call is written */
  dataValidationRefused: { http: 400, code: 128400, tableCode: 70000 },
  /** data-validation: a rule that cannot be kept (the message says why) */
  invalidDataValidation: { http: 400, code: 128401, tableCode: 70000 },
  // 1288xx: saved table views (docs/TABLE-API.md "Views"); the table API answers these codes as they are.
  invalidViewParams: { http: 400, code: 128800 },
  viewNameTaken: { http: 409, code: 128801 },
  defaultViewKept: { http: 409, code: 128802 },
  viewLimitReached: { http: 409, code: 128803 },
  // 1270xx: trust (issue 27): faults survived, input refused cleanly (docs/ERRORS.md).
  /** a signature whose `exp` lies further ahead than SVC_SIGNATURE_MAX_LIFETIME_HOURS */
  signatureLifetimeTooLong: { http: 401, code: 127001, tableCode: 'unauthorized' },
  /** the database does not answer (connection cut, refused or too slow): retry later, nothing was written */
  databaseUnavailable: { http: 503, code: 127002, tableCode: 10000 },
  /** a collaboration socket beyond SVC_COLLAB_SOCKETS_PER_USER or _PER_FILE: the socket is closed with 4429 and this code in its reason */
  collaborationSocketLimit: { http: 429, code: 127004, tableCode: 42900 },
  /** a NUL or other control character in a path, query or JSON body */
  controlCharacterRefused: { http: 400, code: 127003, tableCode: 70000 },
  // 1271xx: editor sessions (docs/SDK.md "Sessions without tokens in URLs").
  sessionTicketInvalid: { http: 401, code: 127100, tableCode: 'unauthorized' },
  sessionOtherFile: { http: 403, code: 127101, tableCode: 20000 },
} as const satisfies Record<string, ErrorSpec>;

export type ErrorName = keyof typeof Errors;

export class ApiError extends Error {
  constructor(
    readonly spec: ErrorSpec,
    message: string,
    /** Extra, machine-readable facts for the client (rendered as the backend envelope's `data`). */
    readonly details?: Record<string, unknown>,
    /** Extra response headers, e.g. Retry-After. */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}
