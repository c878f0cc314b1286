/** Why a file is refused, in the words the uploader reads: the limit it broke, or what makes it unreadable. */
export class FileRefused extends Error {}

export const UNREADABLE_XLSX = 'This XLSX file cannot be read.';
