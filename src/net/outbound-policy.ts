import dns from 'node:dns';
import net from 'node:net';
import { Agent, buildConnector } from 'undici';

/**
 * Which addresses the service may connect to when it fetches a URL someone else chose (the integrator's
 * endpoint URL, an import's `fileUrl`). Without it a caller with a licence signature could point the
 * service at the cloud's metadata service and read instance credentials through error messages and events.
 *
 * Checked twice: `assertUrl` when a URL is accepted (a clear refusal for whoever gave it) and again by the
 * dispatcher on every connection, against the address the name resolves to at that moment, so a name that
 * resolves to a public address when checked and to 169.254.169.254 when used (DNS rebinding) is refused too.
 */
export interface OutboundPolicyOptions {
  /**
   * Private (RFC 1918, shared 100.64/10, unique-local fc00::/7) and loopback addresses. Allowed by default:
   * a self-hosted service and its integrator usually share an intranet or a host.
   */
  allowPrivateNetworks: boolean;
  /** How names become addresses at connect time; the system resolver (dns.lookup) unless given. */
  resolve?: (hostname: string, options: dns.LookupOptions) => Promise<dns.LookupAddress[]>;
}

const systemResolve = (hostname: string, options: dns.LookupOptions) => dns.promises.lookup(hostname, { ...options, all: true });

/** A URL or address the policy refuses; `code` lets network error handlers tell it from other failures. */
export class OutboundRefusedError extends Error {
  readonly code = 'ERR_OUTBOUND_REFUSED';
}

/** Cloud metadata services reachable by name; their addresses are refused below as well. */
const METADATA_HOSTNAMES = new Set(['metadata.google.internal', 'metadata.goog']);

type Family = 'ipv4' | 'ipv6';

function subnets(entries: Array<[string, number, Family]>): net.BlockList {
  const list = new net.BlockList();
  for (const [address, prefix, family] of entries) list.addSubnet(address, prefix, family);
  return list;
}

/** Never reachable, whatever the operator says. IPv4-mapped IPv6 forms (::ffff:a.b.c.d) match these too. */
const ALWAYS_REFUSED: Array<{ why: string; list: net.BlockList }> = [
  {
    why: 'a cloud metadata address',
    list: subnets([
      ['fd00:ec2::254', 128, 'ipv6'], // AWS instance metadata over IPv6
      ['100.100.100.200', 32, 'ipv4'], // Alibaba Cloud metadata
      ['64:ff9b::a9fe:0', 112, 'ipv6'], // 169.254/16 through NAT64
    ]),
  },
  { why: 'a link-local address', list: subnets([['169.254.0.0', 16, 'ipv4'], ['fe80::', 10, 'ipv6']]) },
  { why: 'an unspecified address', list: subnets([['0.0.0.0', 8, 'ipv4'], ['::', 128, 'ipv6']]) },
  {
    why: 'a multicast or broadcast address',
    list: subnets([['224.0.0.0', 4, 'ipv4'], ['240.0.0.0', 4, 'ipv4'], ['ff00::', 8, 'ipv6']]),
  },
];

const PRIVATE: Array<{ why: string; list: net.BlockList }> = [
  { why: 'a loopback address', list: subnets([['127.0.0.0', 8, 'ipv4'], ['::1', 128, 'ipv6']]) },
  {
    why: 'a private network address',
    list: subnets([
      ['10.0.0.0', 8, 'ipv4'],
      ['172.16.0.0', 12, 'ipv4'],
      ['192.168.0.0', 16, 'ipv4'],
      ['100.64.0.0', 10, 'ipv4'],
      ['fc00::', 7, 'ipv6'],
    ]),
  },
];

/** C0 controls, DEL and C1 controls: URL parsing silently drops or encodes some of them; we refuse them. */
// eslint-disable-next-line no-control-regex
const CONTROL_CHARACTER = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * The 16 bytes of an IPv6 address in any spelling Node accepts (`::` shorthand, a dotted IPv4 tail, zero
 * padding), or undefined when it is not one.
 */
function ipv6Bytes(address: string): Uint8Array | undefined {
  if (net.isIPv6(address) === false) return undefined;
  let text = address.replace(/%.*$/, '');
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted[1]!.split('.').map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const groupsOf = (part: string | undefined) => (part ? part.split(':') : []);
  const headGroups = groupsOf(head);
  const tailGroups = groupsOf(tail);
  const groups = tail === undefined ? headGroups : [...headGroups, ...Array<string>(8 - headGroups.length - tailGroups.length).fill('0'), ...tailGroups];
  if (groups.length !== 8) return undefined;
  const bytes = new Uint8Array(16);
  groups.forEach((group, index) => {
    const value = parseInt(group, 16);
    bytes[index * 2] = value >> 8;
    bytes[index * 2 + 1] = value & 0xff;
  });
  return bytes;
}

const dottedQuad = (bytes: Uint8Array, at: number) => `${bytes[at]}.${bytes[at + 1]}.${bytes[at + 2]}.${bytes[at + 3]}`;
const allZero = (bytes: Uint8Array, from: number, to: number) => bytes.subarray(from, to).every((byte) => byte === 0);

/**
 * The IPv4 address an IPv6 address carries, in every spelling that reaches an IPv4 host: mapped
 * (`::ffff:a.b.c.d`), compatible (`::a.b.c.d`, deprecated but still routed by some stacks), NAT64
 * (`64:ff9b::/96` and the local-use `64:ff9b:1::/48`), 6to4 (`2002:AABB:CCDD::/16`) and Teredo (`2001::/32`,
 * whose client address is stored inverted). `::` and `::1` are IPv6's own unspecified and loopback addresses.
 */
export function embeddedIpv4(address: string): string | undefined {
  const bytes = ipv6Bytes(address);
  if (!bytes) return undefined;
  if (allZero(bytes, 0, 10) && bytes[10] === 0xff && bytes[11] === 0xff) return dottedQuad(bytes, 12);
  if (allZero(bytes, 0, 12) && !allZero(bytes, 12, 15)) return dottedQuad(bytes, 12);
  const word = (at: number) => (bytes[at]! << 8) | bytes[at + 1]!;
  if (word(0) === 0x64 && word(2) === 0xff9b && (allZero(bytes, 4, 12) || word(4) === 1)) return dottedQuad(bytes, 12);
  if (word(0) === 0x2002) return dottedQuad(bytes, 2);
  if (word(0) === 0x2001 && word(2) === 0) return dottedQuad(bytes.map((byte, index) => (index >= 12 ? byte ^ 0xff : byte)), 12);
  return undefined;
}

function unbracketed(hostname: string): string {
  return hostname.startsWith('[') && hostname.endsWith(']') ? hostname.slice(1, -1) : hostname;
}

export class OutboundPolicy {
  constructor(readonly options: OutboundPolicyOptions) {}

  /**
   * Why the policy refuses this IP address, or undefined when it may be connected to. An IPv6 address that
   * carries an IPv4 one (see `embeddedIpv4`) is judged by both: `[::a9fe:a9fe]` is 169.254.169.254.
   */
  refusalOfAddress(address: string): string | undefined {
    const family = net.isIP(address);
    if (family === 0) return `${address} is not an IP address`;
    const type: Family = family === 4 ? 'ipv4' : 'ipv6';
    const rules = this.options.allowPrivateNetworks ? ALWAYS_REFUSED : [...ALWAYS_REFUSED, ...PRIVATE];
    const hit = rules.find((rule) => rule.list.check(address, type));
    if (hit) return `${address} is ${hit.why}`;
    const carried = type === 'ipv6' ? embeddedIpv4(address) : undefined;
    const carriedRefusal = carried === undefined ? undefined : this.refusalOfAddress(carried);
    return carriedRefusal === undefined ? undefined : `${address} carries ${carriedRefusal}`;
  }

  /** Why the policy refuses this host (a name or an IP literal, IPv6 with or without brackets), or undefined. */
  refusalOfHost(hostname: string): string | undefined {
    const host = unbracketed(hostname).toLowerCase().replace(/\.$/, '');
    if (net.isIP(host)) return this.refusalOfAddress(host);
    if (METADATA_HOSTNAMES.has(host)) return `${host} is a cloud metadata service`;
    if (!this.options.allowPrivateNetworks && (host === 'localhost' || host.endsWith('.localhost'))) {
      return `${host} is a loopback name`;
    }
    return undefined;
  }

  /**
   * The URL, parsed, when it is an http(s) URL the service may fetch; throws OutboundRefusedError saying why
   * not. Names are checked again, resolved, when the dispatcher connects.
   */
  assertUrl(raw: string): URL {
    if (CONTROL_CHARACTER.test(raw)) throw new OutboundRefusedError('control characters are not allowed in a URL');
    if (raw.trim() !== raw) throw new OutboundRefusedError('leading or trailing spaces are not allowed in a URL');
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new OutboundRefusedError('not an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundRefusedError('only http and https are allowed');
    const refusal = this.refusalOfHost(url.hostname);
    if (refusal) throw new OutboundRefusedError(`${refusal}, which the service does not connect to`);
    return url;
  }

  /**
   * An undici dispatcher (for `request`, `fetch`, `stream`) whose every connection, redirects included, is
   * checked: IP literals before connecting, names against each address they resolve to at connect time.
   */
  dispatcher(options: Omit<Agent.Options, 'connect'> & { connectTimeoutMs?: number } = {}): Agent {
    const { connectTimeoutMs, ...agentOptions } = options;
    const connectOptions: buildConnector.BuildOptions = { lookup: this.checkedLookup };
    if (connectTimeoutMs !== undefined) connectOptions.timeout = connectTimeoutMs;
    const connect = buildConnector(connectOptions);
    return new Agent({
      ...agentOptions,
      connect: (connectParams, callback) => {
        const refusal = this.refusalOfHost(connectParams.hostname);
        if (refusal) {
          callback(new OutboundRefusedError(`${refusal}, which the service does not connect to`), null);
          return;
        }
        connect(connectParams, callback);
      },
    });
  }

  /** dns.lookup, refusing when any resolved address is refused (a name must not mix in a forbidden one). */
  private readonly checkedLookup = (
    hostname: string,
    options: dns.LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void,
  ): void => {
    (this.options.resolve ?? systemResolve)(hostname, options).then(
      (addresses) => {
        for (const { address } of addresses) {
          const refusal = this.refusalOfAddress(address);
          if (refusal) {
            callback(new OutboundRefusedError(`${hostname} resolves to ${refusal}, which the service does not connect to`), []);
            return;
          }
        }
        if (options.all) callback(null, addresses);
        else if (addresses[0]) callback(null, addresses[0].address, addresses[0].family);
        else callback(Object.assign(new Error(`${hostname} has no address`), { code: 'ENOTFOUND' }), []);
      },
      (error: NodeJS.ErrnoException) => callback(error, []),
    );
  };
}
