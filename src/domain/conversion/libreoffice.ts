import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { abortReason, ConversionFailed, ConversionTimedOut } from './conversion-errors.js';

/**
 * LibreOffice, the optional component for the legacy binary formats (docs/IMPORT-EXPORT.md), for import (doc,
 * wps, xls, ppt read as their Office Open XML siblings) and export (wps written from docx).
 */

/** The `soffice` executable on `searchPath`, looked for once at start (config.ts); undefined without LibreOffice. */
export function findSoffice(searchPath = process.env.PATH ?? ''): string | undefined {
  for (const dir of searchPath.split(path.delimiter)) {
    if (!dir) continue;
    const candidate = path.join(dir, process.platform === 'win32' ? 'soffice.exe' : 'soffice');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this directory
    }
  }
  return undefined;
}

/**
 * Converts `input` (a file with extension `from`) with `soffice --headless --convert-to <to>`, `to` being the
 * output extension, optionally with a filter (`docx`, `doc:MS Word 97`), and answers the bytes LibreOffice wrote.
 * It runs as a child process in a temporary directory of its own (profile included, so conversions never share
 * state), killed past `deadlineMs` (ConversionTimedOut) or on `signal` (its reason); the directory is removed in
 * every case. Anything else that goes wrong is a ConversionFailed (`not-started` when soffice cannot be run).
 */
export async function convertWithLibreOffice(
  soffice: string,
  input: Uint8Array,
  from: string,
  to: string,
  options: { signal: AbortSignal; deadlineMs: number },
): Promise<Buffer> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'svc-soffice-'));
  try {
    const source = path.join(dir, `input.${from}`);
    const outDir = path.join(dir, 'out');
    await writeFile(source, input);
    await runSoffice(soffice, [`-env:UserInstallation=file://${path.join(dir, 'profile')}`, '--headless', '--norestore', '--nolockcheck', '--convert-to', to, '--outdir', outDir, source], from, options);
    try {
      return await readFile(path.join(outDir, `input.${to.split(':')[0]}`));
    } catch {
      throw new ConversionFailed(`LibreOffice finished without writing the converted ${from} file`);
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runSoffice(soffice: string, args: string[], from: string, { signal, deadlineMs }: { signal: AbortSignal; deadlineMs: number }): Promise<void> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    // soffice is a launcher that starts soffice.bin: in a process group of its own both are killed together
    const ownGroup = process.platform !== 'win32';
    const child = spawn(soffice, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: ownGroup });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-300);
    });
    let stoppedBecause: Error | undefined;
    const stop = (reason: Error) => {
      stoppedBecause ??= reason;
      try {
        if (ownGroup && child.pid) process.kill(-child.pid, 'SIGKILL');
        else child.kill('SIGKILL');
      } catch {
        // already gone
      }
    };
    const timer = setTimeout(() => stop(new ConversionTimedOut(`LibreOffice did not convert the file within ${Math.ceil(deadlineMs / 1000)} s`)), deadlineMs);
    const onAbort = () => stop(abortReason(signal));
    signal.addEventListener('abort', onAbort, { once: true });
    const settle = (error?: Error) => {
      clearTimeout(timer);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    };
    child.on('error', (error) => settle(stoppedBecause ?? new ConversionFailed(`LibreOffice could not be started: ${error.message}`, 'not-started')));
    // 'exit', not 'close': a process left behind holding stderr must not hold the conversion up
    child.on('exit', (code) => {
      if (stoppedBecause) settle(stoppedBecause);
      else if (code !== 0) settle(new ConversionFailed(`LibreOffice could not convert this ${from} file (exit code ${code}${stderr.trim() ? `: ${stderr.trim()}` : ''})`));
      else settle();
    });
  });
}
