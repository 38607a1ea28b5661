import { ProtocolError } from '../../../sdk/protocol.js';
import { BridgeError } from '../bridge.js';

/** Arguments of SDK editor methods arrive from the host page unchecked: a wrong one answers INVALID_ARGUMENTS. */
export function invalidArgument(message: string): BridgeError {
  return new BridgeError(ProtocolError.invalidArguments, message);
}

export function stringArgument(value: unknown, name: string): string {
  if (typeof value !== 'string' || value.length === 0) throw invalidArgument(`${name} must be a non-empty string`);
  return value;
}

export function optionsArgument(value: unknown, method: string): Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw invalidArgument(`${method} takes an options object`);
  return value as Record<string, unknown>;
}

export function integerArgument(value: unknown, name: string): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw invalidArgument(`${name} must be an integer`);
  return value;
}
