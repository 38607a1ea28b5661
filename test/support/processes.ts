import path from 'node:path';

export const projectRoot = path.resolve(import.meta.dirname, '../..');

/**
 * Command and arguments that run a TypeScript entry point in ONE node process (`node --import tsx`).
 * The `tsx` binary would start a second node process under itself, which a SIGKILL of the child we hold
 * leaves running.
 */
export function typescriptProcess(entry: string, ...args: string[]): [string, string[]] {
  return [process.execPath, ['--import', 'tsx', entry, ...args]];
}
