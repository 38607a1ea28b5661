/** File kinds, as the public SDK names them. */
export enum FileType {
  Document = 'document',
  DocumentPro = 'documentPro',
  Spreadsheet = 'spreadsheet',
  Presentation = 'presentation',
  Table = 'table',
}

/** States of the editor iframe, as the public SDK names them. */
export enum ReadyState {
  Loading = 'loading',
  LoadingEditor = 'loadingEditor',
  Ready = 'ready',
  Failed = 'failed',
  Disconnected = 'disconnected',
}

/** Events of the sdk object (`sdk.on(Event.X, …)`). */
export enum Event {
  Error = 'error',
  ReadyState = 'readyState',
  EditorRendered = 'editorRendered',
  /** the integrator pushed a message to this editor: `{pushId, fileId, message, sentAt}` (docs/SDK.md "pushMessage") */
  PushMessage = 'pushMessage',
}
