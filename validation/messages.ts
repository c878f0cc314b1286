/**
 * The shared form-error messages of docs/spec/seed-spec.md section 5, one place for the console and the server.
 * `fieldErrorText` gives the bare text (what the server sends in `errors`); the console shows it
 * through `displayFieldError`, which adds the "* " prefix (FORM-12).
 */

/** The subset of an ajv error these messages need (ajv's ErrorObject satisfies it). */
export interface ValidationIssue {
  keyword: string;
  instancePath: string;
  schemaPath: string;
  params: Record<string, unknown>;
}

type JsonObject = Record<string, unknown>;

/** The form field an issue belongs to: the top-level property, or the missing one for `required`. */
export function fieldOfIssue(issue: ValidationIssue): string {
  const segments = issue.instancePath.split('/').slice(1).map(unescapePointer);
  if (
    (issue.keyword === 'required' || issue.keyword === 'dependentRequired') &&
    typeof issue.params.missingProperty === 'string'
  ) {
    segments.push(issue.params.missingProperty);
  }
  if (issue.keyword === 'additionalProperties' && typeof issue.params.additionalProperty === 'string') {
    segments.push(issue.params.additionalProperty);
  }
  return segments.join('.');
}

/**
 * The bare message for one issue, e.g. "This field is required". A rule of an `if`/`then` says when it applies:
 * "Required when Status is subscribed.", "Max value is 100 when Discount type is percent.".
 */
export function fieldErrorText(issue: ValidationIssue, rootSchema: JsonObject, data?: unknown): string {
  const text = plainText(issue, rootSchema, data);
  const condition = conditionOf(issue, rootSchema);
  if (condition === null || CARRIES_MESSAGE.has(issue.keyword)) return text;
  if (issue.keyword === 'required' || issue.keyword === 'dependentRequired') return `Required when ${condition}.`;
  return `${text.replace(/\.$/, '')} when ${condition}.`;
}

/** Keywords whose message the manifest writes itself. */
const CARRIES_MESSAGE = new Set(['customPattern', 'rangeMin', 'rangeMax', 'arrayLengthMinMaxSelect']);

/** "Status is subscribed" for an issue inside a `then`, from the constants its `if` tests; null elsewhere. */
function conditionOf(issue: ValidationIssue, rootSchema: JsonObject): string | null {
  const at = issue.schemaPath.lastIndexOf('/then/');
  if (at < 0) return null;
  const test = valueAtSchemaPath(rootSchema, `${issue.schemaPath.slice(0, at)}/if`) as
    { properties?: Record<string, { const?: unknown }> } | undefined;
  const parts = Object.entries(test?.properties ?? {})
    .filter(([, property]) => property.const !== undefined)
    .map(([name, property]) => `${fieldTitle(rootSchema, name)} is ${String(property.const)}`);
  return parts.length > 0 ? parts.join(' and ') : null;
}

function plainText(issue: ValidationIssue, rootSchema: JsonObject, data?: unknown): string {
  const keywordValue = () => valueAtSchemaPath(rootSchema, issue.schemaPath);
  switch (issue.keyword) {
    case 'required':
    case 'dependentRequired':
      return 'This field is required';
    case 'minLength':
      return `Expect ${String(issue.params.limit)} but got ${lengthAt(data, issue.instancePath)}`;
    case 'maxLength':
      return `Expect max ${String(issue.params.limit)} but got ${lengthAt(data, issue.instancePath)}`;
    case 'minimum':
    case 'exclusiveMinimum':
      return `Min value is ${String(issue.params.limit)}`;
    case 'maximum':
    case 'exclusiveMaximum':
      return `Max value is ${String(issue.params.limit)}`;
    case 'format':
      return FORMAT_MESSAGES[String(issue.params.format)] ?? 'Invalid value.';
    case 'type':
      return issue.params.type === 'number' || issue.params.type === 'integer'
        ? 'Should be a number.'
        : 'Invalid value.';
    case 'noWhiteSpace':
      return 'Empty or white space not allowed.';
    case 'lowercaseOnly':
      return 'Should be in lowercase.';
    case 'validNumber':
      return 'Should be a number.';
    case 'compareTo': {
      const target = String(keywordValue());
      return `${fieldTitle(rootSchema, target)} does not match.`;
    }
    case 'notBefore':
      return `Should be on or after ${fieldTitle(rootSchema, String(keywordValue()))}.`;
    case 'customPattern':
    case 'rangeMin':
    case 'rangeMax':
    case 'arrayLengthMinMaxSelect': {
      const carried = keywordValue() as { message?: unknown } | undefined;
      return typeof carried?.message === 'string' ? carried.message : 'Invalid value.';
    }
    case 'additionalProperties':
      return 'This field is not allowed';
    default:
      // pattern, minmaxnumber, validString, arrayLength, enum and the rest (FORM-07, FORM-10)
      return 'Invalid value.';
  }
}

/** What a form shows under a field: the message with the "* " prefix of docs/spec/seed-spec.md section 5. */
export function displayFieldError(text: string): string {
  return text.startsWith('* ') ? text : `* ${text}`;
}

/** Every issue as `{ field: text }`, first issue per field wins (the order ajv reports them). */
export function fieldErrors(
  issues: readonly ValidationIssue[],
  rootSchema: JsonObject,
  data?: unknown,
): Record<string, string> {
  // A null prototype, so that a field named like an Object method (toString, constructor) still gets its error.
  const errors: Record<string, string> = Object.create(null);
  for (const issue of issues) {
    // "must match then": the failing rule of the `then` is reported on its own field.
    if (issue.keyword === 'if') continue;
    const field = fieldOfIssue(issue) || '_';
    if (!Object.hasOwn(errors, field)) errors[field] = fieldErrorText(issue, rootSchema, data);
  }
  return errors;
}

const FORMAT_MESSAGES: Record<string, string> = {
  email: 'Invalid Email.',
  mobile: 'Invalid mobile number.',
  pincode: 'Invalid pincode.',
  ipv4: 'Invalid IP.',
  password: 'Invalid password, Must Have Numbers & Special Character.',
};

function unescapePointer(segment: string): string {
  return segment.replace(/~1/g, '/').replace(/~0/g, '~');
}

function valueAtSchemaPath(rootSchema: JsonObject, schemaPath: string): unknown {
  let node: unknown = rootSchema;
  for (const segment of schemaPath.replace(/^#/, '').split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as JsonObject)[decodeURIComponent(unescapePointer(segment))];
  }
  return node;
}

function lengthAt(data: unknown, instancePath: string): number {
  let node = data;
  for (const segment of instancePath.split('/').slice(1)) {
    if (node === null || typeof node !== 'object') return 0;
    node = (node as JsonObject)[unescapePointer(segment)];
  }
  return typeof node === 'string' ? [...node].length : Array.isArray(node) ? node.length : 0;
}

function fieldTitle(rootSchema: JsonObject, field: string): string {
  const properties = rootSchema.properties as Record<string, { title?: unknown }> | undefined;
  const title = properties?.[field]?.title;
  return typeof title === 'string' ? title : field;
}
