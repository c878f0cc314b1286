import { humanise } from '../../contract/humanise.ts';

/** At most this many fields are named with their text in a 400's message; the rest are counted. */
const NAMED_FIELDS = 2;

/**
 * The message of a 400 with field errors, for the console's error toast (ERR-03): each field by its title with its
 * text, "Code: This value is already in use.", "Code: This value is already in use; Valid until: Invalid value.",
 * past two fields "...; and 3 more fields.". An error on no field (`_`) is its text alone.
 */
export function fieldErrorsMessage(
  errors: Record<string, string>,
  titleOf: (field: string) => string | undefined,
): string {
  const entries = Object.entries(errors);
  const named = entries.slice(0, NAMED_FIELDS).map(([field, text]) => {
    const sentence = text.trim().replace(/\.$/, '');
    return field === '_' ? sentence : `${titleOf(field) ?? fieldInWords(field)}: ${sentence}`;
  });
  const more = entries.length - named.length;
  if (more > 0) named.push(`and ${more} more field${more === 1 ? '' : 's'}`);
  return `${named.join('; ')}.`;
}

/** A field no schema gives a title: `valid_until` -> "Valid until", `_before` -> "Before", `Upload-Length` as it is. */
function fieldInWords(field: string): string {
  return humanise(field.split('.').at(-1)!.replace(/^_+/, '')) || field;
}
