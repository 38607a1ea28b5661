import yauzl from 'yauzl';
import { ConversionError, type ZipLimits } from './conversion.js';

export const DEFAULT_ZIP_LIMITS: ZipLimits = { maxEntries: 10_000, maxUncompressedBytes: 512 * 1024 * 1024, maxRatio: 200 };

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
/** How an encrypted Office file announces itself: an OLE container holding an "EncryptedPackage" stream. */
const ENCRYPTED_PACKAGE = Buffer.from('EncryptedPackage', 'utf16le');
/** Office XML never declares a DTD; one that does is an entity-expansion attempt. */
const DTD = /<!DOCTYPE|<!ENTITY/i;

function refuse(message: string): ConversionError {
  return new ConversionError('importArchiveRefused', message);
}

/**
 * Checks an Office Open XML container before any parser sees it: a password-protected file (an OLE container
 * with an encrypted package) and a file that is no zip are told apart; then every entry is inflated once,
 * counting the real bytes (declared sizes can lie), within the entry count, total size and ratio limits, and
 * XML parts may not declare a DTD (entity expansion). Nothing is written anywhere.
 */
export async function inspectZip(bytes: Buffer, limits: ZipLimits = DEFAULT_ZIP_LIMITS): Promise<void> {
  if (bytes.subarray(0, 8).equals(OLE_MAGIC)) {
    if (bytes.includes(ENCRYPTED_PACKAGE)) throw new ConversionError('importPasswordProtected', 'the file is password-protected: save it without a password and import it again');
    throw new ConversionError('importCorrupt', 'the file is an old binary Office file, not Office Open XML: import it with its own type (doc, xls, ppt)');
  }
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false }, (error, opened) =>
      error || !opened ? reject(new ConversionError('importCorrupt', `the file is not a valid Office Open XML (zip) file: ${error?.message ?? 'unreadable'}`)) : resolve(opened),
    ),
  );
  let entries = 0;
  let total = 0;
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (error: Error) => reject(error instanceof ConversionError ? error : new ConversionError('importCorrupt', `the zip container is damaged: ${error.message}`)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        entries++;
        if (entries > limits.maxEntries) return reject(refuse(`the archive has more than ${limits.maxEntries} entries`));
        if (entry.isEncrypted()) return reject(new ConversionError('importPasswordProtected', 'the archive is encrypted'));
        if (entry.fileName.endsWith('/')) return zip.readEntry();
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return reject(new ConversionError('importCorrupt', `entry ${entry.fileName} cannot be read: ${error?.message ?? 'unreadable'}`));
          let size = 0;
          const xml = /\.(xml|rels|vml)$/i.test(entry.fileName);
          let tail = '';
          stream.on('data', (chunk: Buffer) => {
            size += chunk.length;
            total += chunk.length;
            if (total > limits.maxUncompressedBytes) {
              stream.destroy();
              return reject(refuse(`the archive unpacks to more than ${Math.round(limits.maxUncompressedBytes / 1024 / 1024)} MiB`));
            }
            if (size > 1024 * 1024 && size > limits.maxRatio * Math.max(1, entry.compressedSize)) {
              stream.destroy();
              return reject(refuse(`entry ${entry.fileName} expands more than ${limits.maxRatio} times: a zip bomb`));
            }
            if (xml) {
              const text = tail + chunk.toString('latin1');
              if (DTD.test(text)) {
                stream.destroy();
                return reject(refuse(`entry ${entry.fileName} declares a DTD (XML entity expansion is refused)`));
              }
              tail = text.slice(-16);
            }
          });
          stream.on('error', (streamError: Error) => reject(new ConversionError('importCorrupt', `entry ${entry.fileName} is damaged: ${streamError.message}`)));
          stream.on('end', () => zip.readEntry());
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
}

/** The text of the named entries of a zip (those present), for small parts such as a workbook's sheet list. */
export async function readZipTexts(bytes: Buffer, names: readonly string[]): Promise<Map<string, string>> {
  const wanted = new Set(names);
  const texts = new Map<string, string>();
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.fromBuffer(bytes, { lazyEntries: true }, (error, opened) => (error || !opened ? reject(new ConversionError('importCorrupt', 'the zip container is damaged')) : resolve(opened))),
  );
  try {
    await new Promise<void>((resolve, reject) => {
      zip.on('error', (error: Error) => reject(new ConversionError('importCorrupt', `the zip container is damaged: ${error.message}`)));
      zip.on('end', () => resolve());
      zip.on('entry', (entry: yauzl.Entry) => {
        if (!wanted.has(entry.fileName)) return zip.readEntry();
        zip.openReadStream(entry, (error, stream) => {
          if (error || !stream) return reject(new ConversionError('importCorrupt', `entry ${entry.fileName} cannot be read`));
          const chunks: Buffer[] = [];
          stream.on('data', (chunk: Buffer) => chunks.push(chunk));
          stream.on('error', (streamError: Error) => reject(new ConversionError('importCorrupt', `entry ${entry.fileName} is damaged: ${streamError.message}`)));
          stream.on('end', () => {
            texts.set(entry.fileName, Buffer.concat(chunks).toString('utf8'));
            zip.readEntry();
          });
        });
      });
      zip.readEntry();
    });
  } finally {
    zip.close();
  }
  return texts;
}
