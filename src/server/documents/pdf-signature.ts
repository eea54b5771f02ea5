/** Whether the bytes start as a PDF does; apart from pdf-check so sniffing loads no pdf-lib. */
export function isPdf(bytes: Uint8Array): boolean {
  // '%PDF-' at the very start: readers tolerate junk before it, but an upload has no reason to.
  return [0x25, 0x50, 0x44, 0x46, 0x2d].every((byte, i) => bytes[i] === byte);
}
