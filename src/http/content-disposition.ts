/**
 * A Content-Disposition header value for `filename` (RFC 6266): a plain ASCII `filename` for old clients,
 * with anything outside printable ASCII (and `"`, `\`, `%`) replaced by `_`, and the exact name as
 * `filename*` in RFC 5987 form (UTF-8, percent-encoded), which current browsers prefer.
 */
export function contentDisposition(kind: 'inline' | 'attachment', filename: string): string {
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%]/g, '_');
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${kind}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}
