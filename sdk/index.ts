export { connect, OfficeSDK, SDKError } from './office-sdk.js';
export type { ConnectOptions, Credentials, EditorProxy, GenerateUrlInfo, LoadingOptions, ShowToastOptions, StartParams } from './office-sdk.js';
export { Event, FileType, ReadyState } from './enums.js';
export { ProtocolError as ErrorCode } from './protocol.js';
export type { Collaborator, CollaboratorsChangedPayload, EditForbiddenConfirmedPayload, SaveStatus, SaveStatusChangedPayload } from './protocol.js';
export { SDK_VERSION as version } from './version.js';
