import { execFile } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * LibreOffice, the optional component for the legacy binary formats (docs/IMPORT-EXPORT.md): `soffice` on
 * the PATH, found once at start. Each conversion runs `soffice --headless --convert-to` as a child process
 * in a temporary directory of its own (profile included, so conversions never share state), killed when it
 * passes its deadline or its task is aborted; the directory is removed afterwards in every case.
 */

/** The `soffice` executable on `searchPath`, or undefined when LibreOffice is not installed. */
export function findSoffice(searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, 'soffice');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

export class LibreOfficeFailed extends Error {}

/**
 * Converts `input` (a file with extension `fromExt`) with the output filter `filter` (e.g. `doc:MS Word 97`),
 * answering the bytes of the file LibreOffice wrote.
 */
export async function convertWithSoffice(
  soffice: string,
  input: Uint8Array,
  fromExt: string,
  filter: string,
  options: { signal: AbortSignal; deadlineMs: number },
): Promise<Uint8Array> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-soffice-'));
  try {
    const source = path.join(dir, `input.${fromExt}`);
    await writeFile(source, input);
    await new Promise<void>((resolve, reject) => {
      execFile(
        soffice,
        [`-env:UserInstallation=file://${path.join(dir, 'profile')}`, '--headless', '--norestore', '--nolockcheck', '--convert-to', filter, '--outdir', path.join(dir, 'out'), source],
        { timeout: options.deadlineMs, killSignal: 'SIGKILL', signal: options.signal, maxBuffer: 1024 * 1024 },
        (error) => (error ? reject(new LibreOfficeFailed(`LibreOffice could not convert the file: ${error.message}`)) : resolve()),
      );
    });
    const outputExt = filter.split(':')[0]!;
    try {
      return new Uint8Array(await readFile(path.join(dir, 'out', `input.${outputExt}`)));
    } catch {
      throw new LibreOfficeFailed('LibreOffice finished without writing the converted file');
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
