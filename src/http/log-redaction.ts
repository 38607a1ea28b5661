import type { FastifyRequest, FastifyServerOptions } from 'fastify';

/**
 * Query parameters and headers whose values are credentials: signatures, user tokens, attachment access
 * tokens, the `sig` of export download and preview links (such a link opens the file with no other
 * credential), and whatever a client kit calls them (X-Shimo-Token, access_token, …). Matched by name so that
 * a credential added later is covered without touching this list.
 */
const CREDENTIAL_NAME = /signature|token|secret|password|authorization|cookie|api[-_]?key|ticket|^sig$|[-_]sig$/i;
export const REDACTED = '[redacted]';

/** The URL with every credential-named query value replaced; the path and other parameters stay readable. */
export function redactUrl(url: string): string {
  const queryStart = url.indexOf('?');
  if (queryStart < 0) return url;
  const query = url
    .slice(queryStart + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const rawName = equals < 0 ? pair : pair.slice(0, equals);
      let name = rawName;
      try {
        name = decodeURIComponent(rawName.replace(/\+/g, ' '));
      } catch {
        // an undecodable name is matched as sent
      }
      return equals >= 0 && CREDENTIAL_NAME.test(name) ? `${rawName}=${REDACTED}` : pair;
    })
    .join('&');
  return `${url.slice(0, queryStart)}?${query}`;
}

/** Headers with every credential-named value replaced. */
export function redactHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string | string[] | undefined> {
  return Object.fromEntries(Object.entries(headers).map(([name, value]) => [name, CREDENTIAL_NAME.test(name) && value !== undefined ? REDACTED : value]));
}

/**
 * What a request log line says of the request: Fastify's default fields, the URL without credentials. Headers
 * are not logged with the request; a line that carries them anyway (a `headers` field) is redacted too.
 */
function requestSerializer(request: FastifyRequest) {
  return {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

type LoggerOption = FastifyServerOptions['logger'];

/** The server's logger settings with credentials kept out of every line (query values and headers). */
export function redactingLogger(logger: LoggerOption): LoggerOption {
  if (logger === false || logger === undefined) return logger;
  const base = logger === true ? {} : logger;
  return {
    ...base,
    serializers: { ...base.serializers, req: requestSerializer, headers: redactHeaders },
  };
}
