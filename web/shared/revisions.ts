import { ProtocolError } from '../../sdk/protocol.js';
import { BridgeError } from './bridge.js';

/** What `createRevision` may name: a title and a label, both optional. */
export interface RevisionRequest {
  title?: string;
  label?: string;
}

/**
 * The arguments of the SDK's `createRevision`: nothing, a title, or `{title, label}` (`name` is taken as the
 * title, as some integrators' pages pass it). Anything else is refused with invalid-arguments.
 */
export function revisionRequest(options: unknown): RevisionRequest {
  if (options === undefined || options === null) return {};
  if (typeof options === 'string') return { title: options };
  if (typeof options !== 'object') throw new BridgeError(ProtocolError.invalidArguments, 'createRevision takes a title or {title, label}');
  const { title, name, label } = options as { title?: unknown; name?: unknown; label?: unknown };
  const chosen = title ?? name;
  if (chosen !== undefined && typeof chosen !== 'string') throw new BridgeError(ProtocolError.invalidArguments, 'title must be a string');
  if (label !== undefined && typeof label !== 'string') throw new BridgeError(ProtocolError.invalidArguments, 'label must be a string');
  return { title: chosen?.trim() || undefined, label };
}
