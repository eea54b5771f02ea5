// The upload rules of spec 001 (section 5, "Widgets", and section 8): one pure module that the
// browser checks before uploading and the server checks again after, so both say the same words.
import { FILE_MAX_BYTES, FILE_NAME_MAX_LENGTH } from '../constants';

/** The kinds of document the portal accepts, named by what their bytes are. */
export type DocumentKind = 'png' | 'jpeg' | 'pdf' | 'docx';

/** Allowed extensions (lower case, without the dot), in the order the spec lists them. */
export const ALLOWED_EXTENSIONS = ['png', 'jpeg', 'jpg', 'pdf', 'docx'] as const;
export type AllowedExtension = (typeof ALLOWED_EXTENSIONS)[number];

export const KIND_BY_EXTENSION: Readonly<Record<AllowedExtension, DocumentKind>> = {
  png: 'png',
  jpeg: 'jpeg',
  jpg: 'jpeg',
  pdf: 'pdf',
  docx: 'docx',
};

/** The spec's four messages, quoted exactly (spec 001 section 8). */
export const FILE_TOO_LARGE_MESSAGE = 'Your file is too large. The maximum file size is 1 MB.';
export const FILE_TYPE_MESSAGE =
  'You can only enter the following file types: .png, .jpeg, .jpg, .pdf, .docx';
export const FILE_NAME_TOO_LONG_MESSAGE =
  'The name of your file is too long. File name can have a maximum of 32 characters, including the extension.';
export const FILE_EMPTY_MESSAGE = 'Your file is empty. Please upload a non-empty file.';

/**
 * A hint for the `accept` attribute of the file input. It only steers the picker: the checks
 * below (and the server's content checks) are what count.
 */
export const FILE_INPUT_ACCEPT =
  '.png,.jpeg,.jpg,.pdf,.docx,image/png,image/jpeg,application/pdf,application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** The limits in words, to show before the applicant chooses a file. */
export const FILE_RULES_HINT =
  'PNG, JPEG, PDF or Word (.docx), up to 1 MB, with a name of at most 32 characters.';

/** The extension after the last dot, lower-cased; '' when there is none. */
export function fileExtension(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot < 0 ? '' : name.slice(dot + 1).toLowerCase();
}

/** The kind an allowed extension promises, or null for any other extension. */
export function kindFromFileName(name: string): DocumentKind | null {
  const extension = fileExtension(name);
  return Object.hasOwn(KIND_BY_EXTENSION, extension)
    ? KIND_BY_EXTENSION[extension as AllowedExtension]
    : null;
}

/**
 * Length as a person counts it: code points, so an accented or non-Latin name is not charged
 * twice for characters that JavaScript stores as surrogate pairs.
 */
export function fileNameLength(name: string): number {
  return Array.from(name).length;
}

export interface FileMeta {
  name: string;
  /** Size in bytes. */
  size: number;
}

/**
 * The first rule the file breaks, as the spec's message, or null when it passes. Order: size,
 * type, name length, emptiness, so an oversized file is told about its size first.
 */
export function checkFileMeta({ name, size }: FileMeta): string | null {
  if (size > FILE_MAX_BYTES) return FILE_TOO_LARGE_MESSAGE;
  if (kindFromFileName(name) === null) return FILE_TYPE_MESSAGE;
  if (fileNameLength(name) > FILE_NAME_MAX_LENGTH) return FILE_NAME_TOO_LONG_MESSAGE;
  if (size <= 0) return FILE_EMPTY_MESSAGE;
  return null;
}
