/**
 * The client kits' side of an answer (client-kits.md), strict where the kits' own decoding only seems to
 * succeed: Go's decoder leaves a missing field at its zero value, which is how a read "decodes silently into
 * empty values". Here a missing field, or a field of another JSON type, is an error; null is taken where
 * Go takes it (anywhere), a number for an `int` must be whole.
 */
export type Kind =
  | 'string'
  | 'int'
  | 'bool'
  | 'any'
  | readonly ['array', Kind]
  | readonly ['map', Kind]
  | Fields;
export interface Fields {
  readonly [field: string]: Kind;
}

export type Decoded = unknown;

export type Out<K> = K extends 'string'
  ? string
  : K extends 'int'
    ? number
    : K extends 'bool'
      ? boolean
      : K extends 'any'
        ? unknown
        : K extends readonly ['array', infer E]
          ? Out<E>[]
          : K extends readonly ['map', infer E]
            ? Record<string, Out<E>>
            : { [P in keyof K]: Out<K[P]> };

export function decodeKit<const K extends Kind>(body: unknown, kind: K, at = 'body'): Out<K> {
  check(body, kind, at);
  return body as Out<K>;
}

function check(value: unknown, kind: Kind, at: string): void {
  if (value === null || kind === 'any') return;
  const fail = (expected: string) => {
    throw new Error(`kit decoding: ${at} should be ${expected}, got ${JSON.stringify(value)?.slice(0, 200)}`);
  };
  if (kind === 'string') {
    if (typeof value !== 'string') fail('a string');
  } else if (kind === 'int') {
    if (!Number.isInteger(value)) fail('an integer');
  } else if (kind === 'bool') {
    if (typeof value !== 'boolean') fail('a boolean');
  } else if (Array.isArray(kind)) {
    const [shape, inner] = kind as readonly ['array' | 'map', Kind];
    if (shape === 'array') {
      if (!Array.isArray(value)) return fail('an array');
      value.forEach((entry, index) => check(entry, inner, `${at}[${index}]`));
    } else {
      if (typeof value !== 'object' || Array.isArray(value)) return fail('an object');
      for (const [key, entry] of Object.entries(value)) check(entry, inner, `${at}.${key}`);
    }
  } else {
    if (typeof value !== 'object' || Array.isArray(value)) return fail('an object');
    for (const [field, inner] of Object.entries(kind as Fields)) {
      if (!(field in value)) throw new Error(`kit decoding: ${at}.${field} is missing in ${JSON.stringify(value).slice(0, 300)}`);
      check((value as Record<string, unknown>)[field], inner, `${at}.${field}`);
    }
  }
}

/** The kits' paths are under /sdk/v2/api/ unless absolute. */
export function kitPath(path: string): string {
  return path.startsWith('/') ? path : `/sdk/v2/api/${path}`;
}
