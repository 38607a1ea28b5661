import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { unusedPort } from '../support/ports.js';
import { projectRoot } from '../support/processes.js';

/**
 * README's first impression, as a new user meets it (issue 27 point 8): a clone of the repository, `npm run demo`
 * running, then README's "First run" walk in other terminals, its commands as written, top to bottom.
 *
 * What differs from a new user's machine, and why:
 * - the clone is of the committed tree (`git clone` of this repository), with this checkout's node_modules linked in
 *   rather than a fresh `npm install` (the install is CI's own first step);
 * - dist/ is copied from this checkout: `npm run demo` and `npm start` rebuild what changed all the same
 *   (scripts/build-if-stale.mjs compares a hash of the sources), so an outdated or missing build is built here;
 * - README's ports (3000/4000 for the demo, 3100/4100 for the walk) become free ports of this machine, so the test
 *   runs beside other tests and a developer's own demo; the demo takes them from PORT / DEMO_PORT as README says;
 * - the commands run in a plain environment (PATH, HOME, a language), as in a new terminal.
 */

const README = fs.readFileSync(path.join(projectRoot, 'README.md'), 'utf8');

/** The sh blocks of README's "First run" section, continuation lines joined, comments kept. */
function firstRunBlocks(): string[][] {
  const start = README.indexOf('## First run');
  const end = README.indexOf('\n### ', start);
  const section = README.slice(start, end);
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map(([, block]) => block!.replace(/\\\n\s*/g, '').split('\n').filter((line) => line.trim() !== ''));
}

/** The environment of a new terminal. */
function terminalEnvironment(): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: process.env.HOME, LANG: process.env.LANG ?? 'C.UTF-8', TMPDIR: process.env.TMPDIR };
}

interface Terminal {
  child: ChildProcess;
  output(): string;
}

const terminals: Terminal[] = [];

/** Runs `command` as a terminal would (bash, its own process group so that stopping it stops what it started). */
function openTerminal(command: string, cwd: string, env: NodeJS.ProcessEnv = {}): Terminal {
  const child = spawn('bash', ['-c', command], { cwd, env: { ...terminalEnvironment(), ...env }, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const terminal = { child, output: () => output };
  terminals.push(terminal);
  return terminal;
}

/** Ctrl-C in each terminal: SIGINT to its process group, SIGKILL if it is still there 10 s later. */
async function closeTerminal({ child }: Terminal): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  process.kill(-child.pid!, 'SIGINT');
  const timer = setTimeout(() => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // gone meanwhile
    }
  }, 10_000);
  await exited;
  clearTimeout(timer);
}

/** Waits until `url` answers (any status), as a person waits for a terminal's "listening" line. */
async function answering(url: string, terminal: Terminal, seconds: number): Promise<void> {
  const deadline = Date.now() + seconds * 1000;
  for (;;) {
    if (terminal.child.exitCode !== null) throw new Error(`the terminal's command ended (${terminal.child.exitCode}):\n${terminal.output()}`);
    try {
      await fetch(url, { signal: AbortSignal.timeout(2000) });
      return;
    } catch {
      if (Date.now() > deadline) throw new Error(`${url} did not answer within ${seconds} s:\n${terminal.output()}`);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
}

const clone = fs.mkdtempSync(path.join(os.tmpdir(), 'svc-first-run-'));

afterAll(async () => {
  await Promise.all(terminals.map(closeTerminal));
  fs.rmSync(clone, { recursive: true, force: true });
}, 30_000);

describe('README: the demo, then the first-run walk beside it, on a clone', { timeout: 600_000 }, () => {
  it('works as written: the demo answers, the service starts, npx svc sign signs, every curl answers status 0', async () => {
    const repository = path.join(clone, 'svc');
    const cloned = spawnSync('git', ['clone', '--quiet', projectRoot, repository], { encoding: 'utf8' });
    expect(cloned.status, cloned.stderr).toBe(0);
    fs.symlinkSync(path.join(projectRoot, 'node_modules'), path.join(repository, 'node_modules'));
    if (fs.existsSync(path.join(projectRoot, 'dist'))) fs.cpSync(path.join(projectRoot, 'dist'), path.join(repository, 'dist'), { recursive: true });

    // README "Try it": npm run demo (its ports from PORT / DEMO_PORT)
    const [servicePort, demoPort, walkServicePort, walkIntegratorPort] = await Promise.all([unusedPort(), unusedPort(), unusedPort(), unusedPort()]);
    const demo = openTerminal('npm run demo', repository, { PORT: String(servicePort), DEMO_PORT: String(demoPort) });
    await expect.poll(() => /Svc demo intranet:\s+(http:\/\/\S+?)\/?\s/.exec(demo.output())?.[1], { timeout: 300_000, interval: 500 }).toBeTruthy();
    const demoUrl = /Svc demo intranet:\s+(http:\/\/\S+?)\/?\s/.exec(demo.output())![1]!;

    // README "First run": terminals 1 and 2, then the third terminal's commands, with this machine's free ports
    const ports = (line: string) => line.replaceAll('3100', String(walkServicePort)).replaceAll('4100', String(walkIntegratorPort));
    const [servers, calls, licence] = firstRunBlocks();
    expect(servers).toHaveLength(2);
    expect(servers![0]).toMatch(/# terminal 1$/);
    expect(servers![1]).toMatch(/# terminal 2$/);
    const integrator = openTerminal(ports(servers![0]!), repository);
    const service = openTerminal(ports(servers![1]!), repository);
    await answering(`http://127.0.0.1:${walkIntegratorPort}/`, integrator, 120);
    await answering(`http://127.0.0.1:${walkServicePort}/healthz`, service, 420);

    // the third terminal: one shell, each command's output ended by a marker so that the answers can be told apart
    const MARK = '--svc-walk-answer--';
    const commands = [...calls!, ...licence!].map(ports);
    const script = ['set -e', ...commands.flatMap((command) => [command, `echo; echo ${MARK}`])].join('\n');
    const third = spawnSync('bash', ['-c', script], { cwd: repository, env: terminalEnvironment(), encoding: 'utf8', timeout: 180_000 });
    expect(third.status, `${third.stdout}\n${third.stderr}`).toBe(0);
    const answers = third.stdout.split(MARK).map((answer) => answer.trim());
    const curlAnswers = commands.map((command, at) => ({ command, answer: answers[at] })).filter(({ command }) => command.startsWith('curl'));
    expect(curlAnswers.length).toBeGreaterThanOrEqual(5);
    for (const { command, answer } of curlAnswers) {
      expect({ command, status: (JSON.parse(answer!) as { status: number }).status }).toEqual({ command, status: 0 });
    }
    // eval "$(npx svc sign …)" printed nothing of its own: the lines it printed went into the shell
    for (const [at, command] of commands.entries()) if (command.startsWith('eval')) expect(answers[at], command).toBe('');

    // how long npx svc sign takes in this clone (README says it answers at once: it builds nothing)
    const started = performance.now();
    const signed = spawnSync('bash', ['-c', 'npx svc sign --app demo --user alice'], { cwd: repository, env: { ...terminalEnvironment(), SVC_DATA_DIR: './data-first-run' }, encoding: 'utf8' });
    const signSeconds = (performance.now() - started) / 1000;
    expect(signed.stdout).toMatch(/^export SIGNATURE=\S+\nexport TOKEN=\S+\n?$/);
    console.info(`npx svc sign in the clone: ${signSeconds.toFixed(2)} s (load average ${os.loadavg()[0]!.toFixed(1)})`);

    // the demo ran on beside the walk
    expect((await fetch(`${demoUrl}/`)).status).toBe(200);
  });
});
