export type BuildTarget = 'server' | 'browser';
export const TARGETS: Record<BuildTarget, { script: string; inputs: string[]; outputs: string[]; followImports?: boolean }>;
export function inputFiles(target: BuildTarget, root?: string): string[];
export function inputsHash(target: BuildTarget, root?: string): string;
export function staleness(target: BuildTarget, root?: string): { stale: boolean; hash: string };
export function recordBuilt(target: BuildTarget, hash: string, root?: string): void;
export function buildIfStale(targets: readonly string[], options?: { force?: boolean; root?: string }): BuildTarget[];
