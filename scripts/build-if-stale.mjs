#!/usr/bin/env node
// Builds what is out of date, and only that: `npm start`, `npm run svc`, `npx svc` and `npm run demo` call it
// before they run, so a start after no change costs a hash of the sources (tens of milliseconds), not a build.
//
//   node scripts/build-if-stale.mjs [--force] server|browser …
//
// A target is up to date when its outputs exist and the SHA-256 of its inputs (every file's path and bytes,
// plus the package and TypeScript configuration) equals the one recorded in dist/.build-stamps.json when it
// was last built. Contents, not modification times, decide: a checkout or a copy that touches every file
// builds nothing, and an edit reverted before the next start builds nothing either. The stamp is written only
// after a successful build, from the hash taken before it, so a source saved during a build builds again.
import { createHash } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const defaultRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Each target: its npm script, the files and folders it is built from, and files it must leave behind. */
export const TARGETS = {
  server: {
    script: 'build:server',
    inputs: ['src', 'examples', 'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json'],
    outputs: ['dist/src/main.js', 'dist/src/cli/main.js'],
  },
  browser: {
    // Plus the modules of src/ that web/ and sdk/ import, found by following their imports (importedFromSrc):
    // the editors share the content model, A1 ranges, formulas and field types with the server.
    script: 'build:browser',
    inputs: ['web', 'sdk', 'package.json', 'package-lock.json', 'tsconfig.json'],
    followImports: true,
    outputs: ['dist/public/editor/.vite/manifest.json', 'dist/public/sdk/sdk.mjs', 'dist/public/sdk/sdk.js'],
  },
};

const STAMPS = 'dist/.build-stamps.json';
/** Folders never read as inputs, wherever they are. */
const SKIPPED = new Set(['node_modules', 'dist', '.git']);

/** Every file under `relative` (a file or a folder of `root`), as sorted root-relative paths with / separators. */
function filesOf(root, relative) {
  const absolute = path.join(root, relative);
  let stat;
  try {
    stat = fs.statSync(absolute);
  } catch {
    return [];
  }
  if (stat.isFile()) return [relative];
  if (!stat.isDirectory()) return [];
  return fs
    .readdirSync(absolute, { withFileTypes: true })
    .filter((entry) => !SKIPPED.has(entry.name))
    .flatMap((entry) => filesOf(root, `${relative}/${entry.name}`))
    .sort();
}

const RELATIVE_IMPORT = /(?:^|\n)\s*(?:import|export)\b[^'"]*?\bfrom\s*'(\.[^']*)'|\bimport\s*\(\s*'(\.[^']*)'\s*\)|(?:^|\n)\s*import\s*'(\.[^']*)'/g;

/**
 * The files outside `files` that they import, directly or through each other (relative imports of .ts
 * sources, written `./x.js` as NodeNext wants). A missing target is left to the build to report.
 */
function importedFiles(root, files) {
  const seen = new Set(files);
  const found = [];
  const queue = files.filter((file) => file.endsWith('.ts'));
  while (queue.length > 0) {
    const file = queue.pop();
    const text = fs.readFileSync(path.join(root, file), 'utf8');
    for (const match of text.matchAll(RELATIVE_IMPORT)) {
      const specifier = match[1] ?? match[2] ?? match[3];
      const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier.replace(/\.js$/, '.ts')));
      if (seen.has(target) || !fs.existsSync(path.join(root, target)) || !fs.statSync(path.join(root, target)).isFile()) continue;
      seen.add(target);
      found.push(target);
      if (target.endsWith('.ts')) queue.push(target);
    }
  }
  return found;
}

/** The files `target` is built from under `root`, sorted. */
export function inputFiles(target, root = defaultRoot) {
  const files = [...new Set(TARGETS[target].inputs.flatMap((input) => filesOf(root, input)))];
  return (TARGETS[target].followImports ? [...files, ...importedFiles(root, files)] : files).sort();
}

/** The hash of a target's inputs under `root`: paths and bytes, so added, removed and renamed files count. */
export function inputsHash(target, root = defaultRoot) {
  const hash = createHash('sha256');
  for (const file of inputFiles(target, root)) {
    const bytes = fs.readFileSync(path.join(root, file));
    hash.update(`${file}\0${bytes.length}\0`).update(bytes);
  }
  return hash.digest('hex');
}

function readStamps(root) {
  try {
    const stamps = JSON.parse(fs.readFileSync(path.join(root, STAMPS), 'utf8'));
    return stamps && typeof stamps === 'object' ? stamps : {};
  } catch {
    return {};
  }
}

/** Whether `target` needs building under `root`, and the inputs' hash to record once it is built. */
export function staleness(target, root = defaultRoot) {
  const hash = inputsHash(target, root);
  const missing = TARGETS[target].outputs.filter((output) => !fs.existsSync(path.join(root, output)));
  return { stale: missing.length > 0 || readStamps(root)[target] !== hash, hash };
}

/** Records that `target` was built from inputs with `hash`. */
export function recordBuilt(target, hash, root = defaultRoot) {
  const stamps = { ...readStamps(root), [target]: hash };
  fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
  fs.writeFileSync(path.join(root, STAMPS), `${JSON.stringify(stamps, null, 2)}\n`);
}

/**
 * Builds each target that is stale (every one with `force`). The build's own output goes to stderr, so that a
 * command whose standard output is read (`SIGNATURE=$(npx svc sign …)`) gets only its own lines.
 * Returns the targets it built; throws when a build fails.
 */
export function buildIfStale(targets, { force = false, root = defaultRoot } = {}) {
  const built = [];
  for (const target of targets) {
    if (!(target in TARGETS)) throw new Error(`unknown build target ${target} (known: ${Object.keys(TARGETS).join(', ')})`);
    const { stale, hash } = staleness(target, root);
    if (!stale && !force) continue;
    process.stderr.write(`svc: building ${target} (sources changed since the last build)…\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const result = spawnSync(npm, ['run', '--silent', TARGETS[target].script], { cwd: root, stdio: ['ignore', 2, 2], shell: process.platform === 'win32' });
    if (result.status !== 0) throw new Error(`npm run ${TARGETS[target].script} failed (exit ${result.status ?? result.signal})`);
    recordBuilt(target, hash, root);
    built.push(target);
  }
  return built;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  const force = args.includes('--force');
  const targets = args.filter((arg) => arg !== '--force');
  try {
    buildIfStale(targets.length ? targets : Object.keys(TARGETS), { force });
  } catch (error) {
    console.error(`svc: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
}
