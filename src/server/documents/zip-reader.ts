// A small ZIP reader for untrusted uploads. It exists (instead of a general unzip library) because
// a DOCX upload must be judged by its central directory *before* anything is inflated, and every
// inflation must stop as soon as a byte budget is passed: node:zlib's `maxOutputLength` aborts the
// inflater mid-stream, so a zip bomb costs at most the budget, never its full size.
import { crc32, inflateRawSync } from 'node:zlib';

export interface ZipEntry {
  name: string;
  /** 0 = stored, 8 = deflate; nothing else is accepted. */
  method: number;
  flags: number;
  crc32: number;
  compressedSize: number;
  /** As the archive declares it; inflation checks the real size against it. */
  uncompressedSize: number;
  localHeaderOffset: number;
}

export interface ZipLimits {
  maxEntries: number;
  /** Budget for the sum of all entries' uncompressed sizes, declared and real. */
  maxTotalUncompressedBytes: number;
}

export type ZipErrorReason =
  | 'not-zip'
  | 'damaged'
  | 'encrypted'
  | 'unsupported'
  | 'too-many-entries'
  | 'too-large';

export class ZipError extends Error {
  override readonly name = 'ZipError';
  constructor(
    readonly reason: ZipErrorReason,
    message: string,
  ) {
    super(message);
  }
}

const EOCD_SIGNATURE = 0x06054b50;
const CENTRAL_SIGNATURE = 0x02014b50;
const LOCAL_SIGNATURE = 0x04034b50;
const EOCD_SIZE = 22;
const MAX_COMMENT = 0xffff;

function view(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

function findEndOfCentralDirectory(bytes: Uint8Array, data: DataView): number {
  const last = bytes.byteLength - EOCD_SIZE;
  const first = Math.max(0, last - MAX_COMMENT);
  for (let at = last; at >= first; at--) {
    // The comment length must reach exactly to the end, or this is a signature inside a comment.
    if (
      data.getUint32(at, true) === EOCD_SIGNATURE &&
      at + EOCD_SIZE + data.getUint16(at + 20, true) === bytes.byteLength
    ) {
      return at;
    }
  }
  throw new ZipError('not-zip', 'no end of central directory record');
}

/**
 * Lists the entries from the central directory, refusing the archive as soon as the declared
 * entry count or the declared total size passes the limits. Nothing is inflated here.
 */
export function readZipDirectory(bytes: Uint8Array, limits: ZipLimits): ZipEntry[] {
  if (bytes.byteLength < EOCD_SIZE) throw new ZipError('not-zip', 'too short for a ZIP');
  const data = view(bytes);
  const eocd = findEndOfCentralDirectory(bytes, data);
  const diskNumber = data.getUint16(eocd + 4, true);
  const directoryDisk = data.getUint16(eocd + 6, true);
  const entriesOnDisk = data.getUint16(eocd + 8, true);
  const entryCount = data.getUint16(eocd + 10, true);
  const directorySize = data.getUint32(eocd + 12, true);
  const directoryOffset = data.getUint32(eocd + 16, true);
  if (entryCount === 0xffff || directoryOffset === 0xffffffff || directorySize === 0xffffffff) {
    // ZIP64: never needed for a 1 MB upload, so it is only ever a sign of something odd.
    throw new ZipError('unsupported', 'ZIP64 archives are not accepted');
  }
  if (diskNumber !== 0 || directoryDisk !== 0 || entriesOnDisk !== entryCount) {
    throw new ZipError('unsupported', 'multi-disk archives are not accepted');
  }
  if (entryCount > limits.maxEntries) {
    throw new ZipError('too-many-entries', `${entryCount} entries (limit ${limits.maxEntries})`);
  }
  if (directoryOffset + directorySize > eocd) {
    throw new ZipError('damaged', 'central directory outside the file');
  }

  const decoder = new TextDecoder('utf-8');
  const entries: ZipEntry[] = [];
  const names = new Set<string>();
  let declaredTotal = 0;
  let at = directoryOffset;
  for (let i = 0; i < entryCount; i++) {
    if (at + 46 > eocd || data.getUint32(at, true) !== CENTRAL_SIGNATURE) {
      throw new ZipError('damaged', `bad central directory record ${i}`);
    }
    const nameLength = data.getUint16(at + 28, true);
    const extraLength = data.getUint16(at + 30, true);
    const commentLength = data.getUint16(at + 32, true);
    const next = at + 46 + nameLength + extraLength + commentLength;
    if (next > eocd) throw new ZipError('damaged', `central directory record ${i} overruns`);
    const entry: ZipEntry = {
      flags: data.getUint16(at + 8, true),
      method: data.getUint16(at + 10, true),
      crc32: data.getUint32(at + 16, true),
      compressedSize: data.getUint32(at + 20, true),
      uncompressedSize: data.getUint32(at + 24, true),
      localHeaderOffset: data.getUint32(at + 42, true),
      name: decoder.decode(bytes.subarray(at + 46, at + 46 + nameLength)),
    };
    if (entry.flags & 0x1) throw new ZipError('encrypted', `${entry.name} is encrypted`);
    if (entry.method !== 0 && entry.method !== 8) {
      throw new ZipError('unsupported', `${entry.name} uses compression method ${entry.method}`);
    }
    if (names.has(entry.name)) {
      // Two parts of one name let different readers see different documents.
      throw new ZipError('damaged', `duplicate entry ${entry.name}`);
    }
    names.add(entry.name);
    declaredTotal += entry.uncompressedSize;
    if (declaredTotal > limits.maxTotalUncompressedBytes) {
      throw new ZipError('too-large', `declared size passes ${limits.maxTotalUncompressedBytes}`);
    }
    entries.push(entry);
    at = next;
  }
  return entries;
}

/**
 * Inflates one entry, stopping as soon as the output passes `maxBytes` or the size the archive
 * declared (whichever is smaller), and checking the CRC so damaged parts are caught here.
 */
export function inflateEntry(bytes: Uint8Array, entry: ZipEntry, maxBytes: number): Uint8Array {
  const data = view(bytes);
  const local = entry.localHeaderOffset;
  if (local + 30 > bytes.byteLength || data.getUint32(local, true) !== LOCAL_SIGNATURE) {
    throw new ZipError('damaged', `bad local header for ${entry.name}`);
  }
  const start = local + 30 + data.getUint16(local + 26, true) + data.getUint16(local + 28, true);
  const end = start + entry.compressedSize;
  if (end > bytes.byteLength) throw new ZipError('damaged', `${entry.name} overruns the file`);
  if (entry.uncompressedSize > maxBytes) {
    throw new ZipError('too-large', `${entry.name} is larger than ${maxBytes} bytes`);
  }
  const compressed = bytes.subarray(start, end);
  let output: Uint8Array;
  if (entry.method === 0) {
    output = compressed;
  } else {
    try {
      // maxOutputLength must be at least 1; an entry declared empty may still inflate to 0 bytes.
      output = inflateRawSync(compressed, { maxOutputLength: Math.max(1, entry.uncompressedSize) });
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      throw new ZipError(
        code === 'ERR_BUFFER_TOO_LARGE' ? 'too-large' : 'damaged',
        `${entry.name}: ${(error as Error).message}`,
      );
    }
  }
  if (output.byteLength !== entry.uncompressedSize) {
    throw new ZipError('damaged', `${entry.name} is not the size the archive declares`);
  }
  if (crc32(output) >>> 0 !== entry.crc32) {
    throw new ZipError('damaged', `${entry.name} fails its CRC check`);
  }
  return output;
}

/**
 * Checks a whole archive against the limits by inflating every entry within one shared budget,
 * and returns the contents of the entries `keep` asks for.
 */
export function readZip(
  bytes: Uint8Array,
  limits: ZipLimits,
  keep: (name: string) => boolean = () => false,
): { entries: ZipEntry[]; files: Map<string, Uint8Array> } {
  const entries = readZipDirectory(bytes, limits);
  const files = new Map<string, Uint8Array>();
  let remaining = limits.maxTotalUncompressedBytes;
  for (const entry of entries) {
    const content = inflateEntry(bytes, entry, remaining);
    remaining -= content.byteLength;
    if (keep(entry.name)) files.set(entry.name, content);
  }
  return { entries, files };
}
