/**
 * The custom string formats of the shared validation rules (docs/spec/seed-spec.md section 5).
 * Kept free of any ajv import: the generated browser validators import this file directly,
 * so it must stay tiny and evaluate no code at run time.
 */

const MOBILE = /^[6-9]\d{9}$/;

/**
 * An Indian mobile number as its ten digits, from the usual spellings ("+91 98765 43210", "098765-43210",
 * "(+91) 9876543210"); any other text as it was, for the format to refuse.
 */
export function nationalMobile(value: string): string {
  const digits = value.replace(/[\s().-]/g, '');
  const national = digits.replace(/^(?:\+91|91(?=\d{10}$)|0(?=\d{10}$))/, '');
  return /^\d{10}$/.test(national) ? national : value;
}
const PINCODE = /^[1-9]\d{5}$/;
const EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)+$/;
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)$/;
/** At least 8 characters with a letter, a digit and a special character. */
const PASSWORD = /^(?=.*[A-Za-z])(?=.*\d)(?=.*[^A-Za-z0-9\s]).{8,128}$/;
const URI = /^(?:https?:\/\/[^\s/$.?#][^\s]*|\/[^\s]*)$/;

function isDate(value: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  const date = new Date(Date.UTC(year, month - 1, day));
  return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

function isDateTime(value: string): boolean {
  const match = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/i.exec(value);
  if (!match || !isDate(match[1] ?? '')) return false;
  return Number(match[2]) < 24 && Number(match[3]) < 60 && Number(match[4] ?? 0) < 60;
}

/** A month of trade data, e.g. 2026-10. */
const PERIOD = /^\d{4}-(?:0[1-9]|1[0-2])$/;

export const formats = {
  mobile: (value: string) => MOBILE.test(nationalMobile(value)),
  pincode: (value: string) => PINCODE.test(value),
  email: (value: string) => EMAIL.test(value),
  ipv4: (value: string) => IPV4.test(value),
  password: (value: string) => PASSWORD.test(value),
  uri: (value: string) => URI.test(value),
  // The address of an image (beyond section 5, which names no format for it): judged as a uri, and it tells the
  // console to edit it with the image preview and upload, and never because of the field's name.
  'image-url': (value: string) => URI.test(value),
  date: isDate,
  'date-time': isDateTime,
  period: (value: string) => PERIOD.test(value),
  // A number that is an amount of money, in its field's `currency` (keywords.ts): it judges nothing (the field's
  // minimum, maximum and multipleOf do), and it tells the console to show the amount as money and take it in the
  // money input.
  money: true,
} as const;
