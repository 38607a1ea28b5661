import { spawn } from 'node:child_process';
import { accessSync, constants } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { abortReason, ConversionFailed, ConversionTimedOut } from './conversion-errors.js';
import type { Scratch } from './scratch.js';

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
 * It runs as a child process in a scratch folder of its own (profile and TMPDIR included, so conversions never
 * share state, two run at once and nothing lands in the system's temporary folder), killed past `deadlineMs`
 * (ConversionTimedOut) or on `signal` (its reason); the folder is removed in every case. Anything else that goes wrong is a ConversionFailed (`not-started` when
 * soffice cannot be run). LibreOffice recognises a file by its content, not its name: a file it recognises as
 * nothing else is read as plain text.
 */
export async function convertWithLibreOffice(
  soffice: string,
  input: Uint8Array,
  from: string,
  to: string,
  options: SofficeRun & { scratch: Scratch },
): Promise<Buffer> {
  return options.scratch.within('soffice', async (dir) => {
    const source = path.join(dir, `input.${from}`);
    const outDir = path.join(dir, 'out');
    await writeFile(source, input);
    const profile = pathToFileURL(path.join(dir, 'profile')).href;
    const args = [`-env:UserInstallation=${profile}`, '--headless', '--norestore', '--nolockcheck', '--convert-to', to, '--outdir', outDir, source];
    const stderr = await runSoffice(soffice, args, from, { ...options, tmpDir: dir });
    try {
      return await readFile(path.join(outDir, `input.${to.split(':')[0]}`));
    } catch {
      // soffice exits with 0 when it cannot load the file ("source file could not be loaded") or cannot write
      // it as `to` ("no export filter": it read the file as another kind of document, often as plain text)
      throw new ConversionFailed(`LibreOffice could not convert this ${from} file to ${to.split(':')[0]}${stderr ? ` (${stderr})` : ''}`);
    }
  });
}

interface SofficeRun {
  signal: AbortSignal;
  deadlineMs: number;
}

/**
 * What soffice says on stderr that is not noise of its launcher (its Java helper is looked for on every start),
 * each message once, without the server's directories (`/tmp/svc-soffice-…/out/input.pptx` → `input.pptx`).
 */
export function sofficeMessages(stderr: string): string {
  return stderr
    .split('\n')
    .map((line) => line.replace(/(?:[A-Za-z]:)?(?:[\\/][^\s\\/]+)+[\\/](?=[^\s\\/]+)/g, '').trim())
    .filter((line) => line !== '' && !/^Warning: failed to launch javaldx/.test(line))
    .filter((line, index, lines) => lines.indexOf(line) === index)
    .join('; ')
    .slice(0, 300);
}

const STDERR_GRACE_MS = 500;

/** Runs soffice to its end; answers what it said on stderr (sofficeMessages). */
function runSoffice(soffice: string, args: string[], from: string, { signal, deadlineMs, tmpDir }: SofficeRun & { tmpDir: string }): Promise<string> {
  if (signal.aborted) return Promise.reject(abortReason(signal));
  return new Promise((resolve, reject) => {
    // soffice is a launcher that starts soffice.bin: in a process group of its own both are killed together
    const ownGroup = process.platform !== 'win32';
    const env = { ...process.env, TMPDIR: tmpDir, TMP: tmpDir, TEMP: tmpDir };
    const child = spawn(soffice, args, { stdio: ['ignore', 'ignore', 'pipe'], detached: ownGroup, env });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-2000);
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
      else resolve(sofficeMessages(stderr));
    };
    child.on('error', (error) => settle(stoppedBecause ?? new ConversionFailed(`LibreOffice could not be started: ${error.message}`, 'not-started')));
    const finish = (code: number | null) => {
      if (stoppedBecause) settle(stoppedBecause);
      else if (code !== 0) settle(new ConversionFailed(`LibreOffice could not convert this ${from} file (exit code ${code}${sofficeMessages(stderr) ? `: ${sofficeMessages(stderr)}` : ''})`));
      else settle();
    };
    // stderr's last words may come after 'exit': wait for 'close', but a process left behind holding stderr
    // open must not hold the conversion up for more than a moment
    child.on('exit', (code) => {
      const grace = setTimeout(() => finish(code), STDERR_GRACE_MS);
      child.once('close', () => {
        clearTimeout(grace);
        finish(code);
      });
    });
  });
}
