/** The authenticator key as people copy it by hand: groups of four, spaced. */
export function groupKey(secret: string): string {
  return (
    secret
      .replace(/\s+/g, '')
      .match(/.{1,4}/g)
      ?.join(' ') ?? ''
  );
}

/** The recovery codes as a text file to keep: a heading, the codes, and how to use them. */
export function recoveryCodesText(
  codes: readonly string[],
  institution: string,
  email: string,
): string {
  return [
    `${institution} admissions console: recovery codes for ${email}`,
    '',
    ...codes,
    '',
    'Each code works once, in place of a code from your authenticator app.',
    'Keep them somewhere safe, apart from your phone.',
    '',
  ].join('\n');
}

/** Copies text to the clipboard; false where the browser refuses (no permission, no HTTPS). */
export async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/** Offers a file to save, as a link the browser downloads from. */
export function downloadFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser a moment to start the download before the address goes.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
