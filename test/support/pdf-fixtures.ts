import crypto from 'node:crypto';

/**
 * Small pdf files for tests, written object by object as the PDF 1.4 reference lays them out: pages of text (a
 * heading per page, so a test can tell pages apart) and, with a user password, the standard security handler
 * revision 2 (RC4, 40-bit key) that every reader supports. The preview's reader is pdf.js; writing the fixtures
 * with it would make the test check pdf.js against itself, hence this independent writer.
 */

export interface PdfFixtureOptions {
  /** encrypt with this user password (readers then ask for it) */
  password?: string;
  /** page size in points; A4 portrait by default */
  width?: number;
  height?: number;
}

/** The padding string of the standard security handler (PDF 1.4 reference, algorithm 3.2). */
const PASSWORD_PAD = Buffer.from('28BF4E5E4E758A4164004E56FFFA01082E2E00B6D0683E802F0CA9FE6453697A', 'hex');

function rc4(key: Buffer, data: Buffer): Buffer {
  const state = Array.from({ length: 256 }, (_, index) => index);
  for (let i = 0, j = 0; i < 256; i++) {
    j = (j + state[i]! + key[i % key.length]!) & 255;
    [state[i], state[j]] = [state[j]!, state[i]!];
  }
  const out = Buffer.alloc(data.length);
  for (let n = 0, i = 0, j = 0; n < data.length; n++) {
    i = (i + 1) & 255;
    j = (j + state[i]!) & 255;
    [state[i], state[j]] = [state[j]!, state[i]!];
    out[n] = data[n]! ^ state[(state[i]! + state[j]!) & 255]!;
  }
  return out;
}

const md5 = (...parts: Buffer[]) => crypto.createHash('md5').update(Buffer.concat(parts)).digest();
const padded = (password: string) => Buffer.concat([Buffer.from(password, 'latin1'), PASSWORD_PAD]).subarray(0, 32);

/** Revision 2 keys: the /O and /U entries and the file key (algorithms 3.2, 3.3, 3.4). */
function securityHandler(userPassword: string, id: Buffer) {
  const permissions = -44;
  const owner = rc4(md5(padded(`${userPassword}-owner`)).subarray(0, 5), padded(userPassword));
  const p = Buffer.alloc(4);
  p.writeInt32LE(permissions);
  const fileKey = md5(padded(userPassword), owner, p, id).subarray(0, 5);
  const user = rc4(fileKey, PASSWORD_PAD);
  const objectKey = (objectNumber: number) => {
    const suffix = Buffer.from([objectNumber & 255, (objectNumber >> 8) & 255, (objectNumber >> 16) & 255, 0, 0]);
    return md5(fileKey, suffix).subarray(0, 10);
  };
  return { owner, user, permissions, objectKey };
}

/** A pdf with one page per entry of `pages` (each page shows its text in large type, ASCII only). */
export function pdfFixture(pages: string[], options: PdfFixtureOptions = {}): Buffer {
  const width = options.width ?? 595;
  const height = options.height ?? 842;
  const id = crypto.randomBytes(16);
  const security = options.password !== undefined ? securityHandler(options.password, id) : undefined;
  // objects: 1 catalog, 2 page tree, 3 font, then a page and its content per page, then the encryption dictionary
  const objects: Buffer[] = [];
  const add = (body: string | Buffer) => objects.push(Buffer.isBuffer(body) ? body : Buffer.from(body, 'latin1'));
  const pageObject = (index: number) => 4 + index * 2;
  add('<< /Type /Catalog /Pages 2 0 R >>');
  add(`<< /Type /Pages /Count ${pages.length} /Kids [${pages.map((_, index) => `${pageObject(index)} 0 R`).join(' ')}] >>`);
  add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  pages.forEach((text, index) => {
    const escaped = text.replace(/[\\()]/g, (ch) => `\\${ch}`);
    const drawing = `0.9 0.93 1 rg 40 ${height - 140} ${width - 80} 100 re f 0 0 0 rg BT /F1 28 Tf 60 ${height - 100} Td (${escaped}) Tj ET`;
    let stream: Buffer = Buffer.from(drawing, 'latin1');
    if (security) stream = rc4(security.objectKey(pageObject(index) + 1), stream);
    add(`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${width} ${height}] /Resources << /Font << /F1 3 0 R >> >> /Contents ${pageObject(index) + 1} 0 R >>`);
    add(Buffer.concat([Buffer.from(`<< /Length ${stream.length} >>\nstream\n`, 'latin1'), stream, Buffer.from('\nendstream', 'latin1')]));
  });
  if (security) {
    add(`<< /Filter /Standard /V 1 /R 2 /O <${security.owner.toString('hex')}> /U <${security.user.toString('hex')}> /P ${security.permissions} >>`);
  }
  const chunks: Buffer[] = [Buffer.from('%PDF-1.4\n%\xE2\xE3\xCF\xD3\n', 'latin1')];
  let offset = chunks[0]!.length;
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(offset);
    const chunk = Buffer.concat([Buffer.from(`${index + 1} 0 obj\n`, 'latin1'), body, Buffer.from('\nendobj\n', 'latin1')]);
    chunks.push(chunk);
    offset += chunk.length;
  });
  const xref = ['xref', `0 ${objects.length + 1}`, '0000000000 65535 f ', ...offsets.map((at) => `${String(at).padStart(10, '0')} 00000 n `)].join('\n');
  const encrypt = security ? ` /Encrypt ${objects.length} 0 R` : '';
  const trailer = `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R${encrypt} /ID [<${id.toString('hex')}> <${id.toString('hex')}>] >>\nstartxref\n${offset}\n%%EOF\n`;
  chunks.push(Buffer.from(`${xref}\n${trailer}`, 'latin1'));
  return Buffer.concat(chunks);
}
