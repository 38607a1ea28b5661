import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.js';
import { LICENSE_SIGNATURE_MAX_SECONDS } from '../auth/signature.js';
import type { App, AppSettings } from '../apps/app.js';
import { FILE_TYPES, isFileType, type FileType } from '../model/file-types.js';
import { isSeatPolicy, SEAT_POLICIES } from '../apps/seat-policy.js';
import { isApiError } from '../errors.js';
import { createCluster } from '../cluster/cluster.js';
import { createServices } from '../services.js';
import { openStorage } from '../storage/database.js';
import { runSign } from './sign-command.js';

const USAGE = `usage: svc <command> [options]

Manages applications in the database the service uses (same DATABASE_URL / SVC_DATA_DIR as npm start).

commands:
  app create [--id ID] [--name NAME] [--endpoint-url URL] [--member-limit N] [--seat-policy P]
             [--valid-until ISO|never] [--file-types a,b,…] [--qps N] [--frame-origins a,b,…|any]
                                      create an application; prints appId and secret (shown once)
  app show <appId>                    show an application (never its secret)
  app update <appId> [--name …] [--member-limit …] [--seat-policy P] [--valid-until …] [--file-types …]
             [--qps N|default] [--frame-origins a,b,…|any]
  app set-endpoint <appId> <url>      set the integrator callback base address
  app rotate-secret <appId>           replace the secret; prints the new one (shown once)
  sign --app <appId> [--license] [--expires 1h] [--user <userId>]
                                      print a signature for curl as shell lines (svc sign -h says more)

file types: ${FILE_TYPES.join(', ')}
seat policies: open (anyone the integrator vouches for), auto (a user without a seat is activated on first
  use while seats remain), strict (activated users only); under auto and strict a disabled user or one beyond
  the member limit is refused (20011). Default: auto when --member-limit is given at creation, else open.
frame origins: the host pages allowed to frame the editor, comma-separated http(s)://host[:port]
  (host may start with *. for its subdomains), e.g. https://intranet.example.com,https://*.example.org;
  any (the default) allows every origin`;

class UsageError extends Error {}

function parseSettings(values: Record<string, string | boolean | undefined>): AppSettings {
  const settings: AppSettings = {};
  const text = (name: string) => {
    const value = values[name];
    return typeof value === 'string' ? value : undefined;
  };
  if (text('name') !== undefined) settings.name = text('name');
  if (text('endpoint-url') !== undefined) settings.endpointUrl = text('endpoint-url');
  const memberLimit = text('member-limit');
  if (memberLimit !== undefined) settings.memberLimit = Number(memberLimit);
  const seatPolicy = text('seat-policy');
  if (seatPolicy !== undefined) {
    if (!isSeatPolicy(seatPolicy)) throw new UsageError(`--seat-policy: one of ${SEAT_POLICIES.join(', ')}, not ${seatPolicy}`);
    settings.seatPolicy = seatPolicy;
  }
  const qps = text('qps');
  if (qps !== undefined) settings.qpsLimit = qps === 'default' ? null : Number(qps);
  const validUntil = text('valid-until');
  if (validUntil !== undefined) {
    const ms = validUntil === 'never' ? null : Date.parse(validUntil);
    if (ms !== null && Number.isNaN(ms)) throw new UsageError(`--valid-until: not a date: ${validUntil}`);
    settings.validUntil = ms;
  }
  const fileTypes = text('file-types');
  if (fileTypes !== undefined) {
    const list = fileTypes.split(',').map((t) => t.trim()).filter(Boolean);
    const unknown = list.filter((t) => !isFileType(t));
    if (unknown.length) throw new UsageError(`--file-types: unknown ${unknown.join(', ')}`);
    settings.availableFileTypes = list as FileType[];
  }
  const frameOrigins = text('frame-origins');
  if (frameOrigins !== undefined) {
    const list = frameOrigins.split(',').map((origin) => origin.trim()).filter(Boolean);
    if (list.length === 0) throw new UsageError('--frame-origins: give origins separated by commas, or any to allow every origin');
    settings.frameOrigins = list.length === 1 && list[0]!.toLowerCase() === 'any' ? [] : list;
  }
  return settings;
}

function describe(app: App): Record<string, unknown> {
  return {
    appId: app.id,
    appName: app.name,
    availableFileTypes: app.availableFileTypes,
    memberLimit: app.memberLimit,
    seatPolicy: app.seatPolicy,
    validFrom: new Date(app.validFrom).toISOString(),
    validUntil: app.validUntil === null ? null : new Date(app.validUntil).toISOString(),
    endpointUrl: app.endpointUrl,
    qpsLimit: app.qpsLimit,
    frameOrigins: app.frameOrigins,
  };
}

async function run(argv: string[]): Promise<void> {
  if (argv[0] === 'sign') return runSign(argv.slice(1));
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      id: { type: 'string' },
      name: { type: 'string' },
      'endpoint-url': { type: 'string' },
      'member-limit': { type: 'string' },
      'seat-policy': { type: 'string' },
      'valid-until': { type: 'string' },
      'file-types': { type: 'string' },
      qps: { type: 'string' },
      'frame-origins': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [group, command, ...rest] = positionals;
  if (values.help || !(group === 'app' && command)) {
    console.log(USAGE);
    if (!values.help) process.exitCode = 2;
    return;
  }
  const config = loadConfig();
  const storage = await openStorage({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
  // with REDIS_URL, a change made here is announced to the running processes (they forget the app at once)
  const cluster = createCluster(config);
  await cluster.start().catch(async (error: unknown) => {
    await storage.close();
    throw error;
  });
  const { apps } = createServices(config, storage, cluster);
  const needId = () => {
    const id = rest[0];
    if (!id) throw new UsageError(`app ${command} needs an appId`);
    return id;
  };
  try {
    switch (command) {
      case 'create': {
        const app = await apps.create({ ...parseSettings(values), ...(values.id ? { id: values.id } : {}) });
        console.log(JSON.stringify({ ...describe(app), appSecret: app.secret }, null, 2));
        console.error('Keep the secret on your backend only; it is not shown again (rotate it with app rotate-secret).');
        break;
      }
      case 'show':
        console.log(JSON.stringify(describe(await apps.get(needId())), null, 2));
        break;
      case 'update':
        console.log(JSON.stringify(describe(await apps.update(needId(), parseSettings(values))), null, 2));
        break;
      case 'set-endpoint': {
        const url = rest[1];
        if (!url) throw new UsageError('app set-endpoint needs <appId> <url>');
        console.log(JSON.stringify(describe(await apps.setEndpointUrl(needId(), url)), null, 2));
        break;
      }
      case 'rotate-secret': {
        const app = await apps.rotateSecret(needId());
        console.log(JSON.stringify({ appId: app.id, appSecret: app.secret }, null, 2));
        break;
      }
      default:
        throw new UsageError(`unknown command: app ${command}`);
    }
  } finally {
    await cluster.close();
    await storage.close();
  }
}

run(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof UsageError || error instanceof ConfigError || isApiError(error)) {
    console.error(`svc: ${error.message}`);
    if (error instanceof UsageError) console.error(USAGE);
  } else {
    console.error(error);
  }
  process.exitCode = 1;
});
