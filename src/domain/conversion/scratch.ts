import { mkdirSync, readdirSync, rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';

/**
 * The one place on disk where converters may write (docs/IMPORT-EXPORT.md "Temporary files"): `<dataDir>/scratch`,
 * one folder per process (`p<pid>-<start>`), one folder per task under it, removed when the task ends in any way.
 * A process killed outright leaves its folder behind: the next process that starts on the same data dir removes
 * the folders of processes that no longer run (several processes may share a data dir, so a live one's folder
 * stays). Nothing is written to TMPDIR: the libraries that would (LibreOffice, Chromium) get a folder of here as
 * their TMPDIR and profile.
 */
export class Scratch {
  /** this process's folder */
  readonly dir: string;

  private constructor(readonly root: string) {
    this.dir = path.join(root, `p${process.pid}-${Date.now().toString(36)}`);
  }

  /** Makes this process's folder under `<dataDir>/scratch`, after removing the folders of processes gone. */
  static open(dataDir: string): Scratch {
    const scratch = new Scratch(path.join(dataDir, 'scratch'));
    mkdirSync(scratch.root, { recursive: true });
    for (const entry of readdirSync(scratch.root)) {
      if (!processAlive(ownerOf(entry))) rmSync(path.join(scratch.root, entry), { recursive: true, force: true });
    }
    mkdirSync(scratch.dir, { recursive: true });
    return scratch;
  }

  /** A new empty folder for one task (`purpose` names it for whoever looks): remove it with `release`. */
  async folder(purpose: string): Promise<ScratchFolder> {
    mkdirSync(this.dir, { recursive: true });
    const dir = await mkdtemp(path.join(this.dir, `${purpose}-`));
    return { path: dir, release: () => rm(dir, { recursive: true, force: true }) };
  }

  /** Runs `use` with a folder of its own, removed afterwards whatever `use` does. */
  async within<T>(purpose: string, use: (dir: string) => Promise<T>): Promise<T> {
    const folder = await this.folder(purpose);
    try {
      return await use(folder.path);
    } finally {
      await folder.release();
    }
  }

  /** Removes this process's folder (the service stopping). */
  close(): void {
    rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface ScratchFolder {
  path: string;
  release(): Promise<void>;
}

/** The process id a folder name `p<pid>-…` carries; undefined for anything else (removed: nobody owns it). */
function ownerOf(entry: string): number | undefined {
  const match = /^p(\d+)-/.exec(entry);
  return match ? Number(match[1]) : undefined;
}

/**
 * Whether process `pid` runs. Our own pid on a folder found at start is a previous process's (containers start the
 * service as pid 1 each time): stale.
 */
function processAlive(pid: number | undefined): boolean {
  if (pid === undefined || pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, under another user
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
