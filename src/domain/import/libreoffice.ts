import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ApiError, Errors } from '../../errors.js';

/** `soffice` on the PATH, found once at start (README "Optional components"); undefined without LibreOffice. */
export function findSoffice(pathVariable = process.env.PATH ?? ''): string | undefined {
  for (const dir of pathVariable.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, process.platform === 'win32' ? 'soffice.exe' : 'soffice');
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Converts a legacy binary Office file (doc, wps, xls, ppt) to its Office Open XML sibling with LibreOffice, as
 * a child process in a private temporary directory (its own profile, so conversions never share state), killed
 * on timeout or abort; the directory is removed whatever happens.
 */
export async function convertWithLibreOffice(soffice: string, bytes: Buffer, from: string, to: string, timeoutMs: number, signal: AbortSignal): Promise<Buffer> {
  const dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'svc-import-'));
  try {
    const input = path.join(dir, `input.${from}`);
    await fs.promises.writeFile(input, bytes);
    await new Promise<void>((resolve, reject) => {
      const child = spawn(soffice, [`-env:UserInstallation=file://${path.join(dir, 'profile')}`, '--headless', '--norestore', '--convert-to', to, '--outdir', dir, input], {
        stdio: 'ignore',
      });
      const stop = () => child.kill('SIGKILL');
      const timer = setTimeout(stop, timeoutMs);
      signal.addEventListener('abort', stop, { once: true });
      child.on('error', (error) => reject(new ApiError(Errors.importComponentMissing, `LibreOffice could not be started: ${error.message}`)));
      child.on('exit', (code, killed) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', stop);
        if (killed) reject(new ApiError(Errors.taskTimedOut, `LibreOffice did not convert the file within ${Math.round(timeoutMs / 1000)} s`));
        else if (code !== 0) reject(new ApiError(Errors.importCorrupt, `LibreOffice could not read this ${from} file (exit code ${code})`));
        else resolve();
      });
    });
    try {
      return await fs.promises.readFile(path.join(dir, `input.${to}`));
    } catch {
      throw new ApiError(Errors.importCorrupt, `LibreOffice could not convert this ${from} file`);
    }
  } finally {
    await fs.promises.rm(dir, { recursive: true, force: true });
  }
}
