/**
 * Each entry of a ZIP as its central directory and its local header name it, read as UTF-8, and
 * whether each header says the name is UTF-8 (general purpose bit 11). unzipSync decodes names
 * by that bit, so a name it returns intact proves little about other tools: the bit is what they
 * read. Walks the central directory from its end record, as unzip tools do.
 */
export function utf8Flags(zip: Uint8Array): { name: string; utf8: boolean }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let end = zip.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error('no end of central directory record');
  const entries = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const found: { name: string; utf8: boolean }[] = [];
  for (let entry = 0; entry < entries; entry++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error('not a central header');
    const nameLength = view.getUint16(at + 28, true);
    const extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true);
    found.push({
      name: decoder.decode(zip.subarray(at + 46, at + 46 + nameLength)),
      utf8: (view.getUint16(at + 8, true) & 0x0800) !== 0,
    });
    const local = view.getUint32(at + 42, true);
    if (view.getUint32(local, true) !== 0x04034b50) throw new Error('not a local header');
    const localName = view.getUint16(local + 26, true);
    found.push({
      name: decoder.decode(zip.subarray(local + 30, local + 30 + localName)),
      utf8: (view.getUint16(local + 6, true) & 0x0800) !== 0,
    });
    at += 46 + nameLength + extra + comment;
  }
  return found;
}
