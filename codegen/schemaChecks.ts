import { errorsAt, manifestError, type ManifestError } from './errors.ts';

// Checks within one JSON schema of the manifest (an entity's or an action form's), each error at its JSON pointer.

type Properties = Record<string, Record<string, unknown>>;
type Pointer = (...rest: (string | number)[]) => string;

function propertiesOf(schema: object): Properties {
  return ((schema as { properties?: unknown }).properties ?? {}) as Properties;
}

/**
 * compareTo and notBefore name a sibling field of the same schema; notBefore compares text order, which is date
 * order only when both fields have the same date format.
 */
export function siblingReferenceErrors(file: string, schema: object, pointer: Pointer): ManifestError[] {
  const properties = propertiesOf(schema);
  const { errors, add } = errorsAt(file, pointer);
  for (const [name, property] of Object.entries(properties)) {
    for (const keyword of ['compareTo', 'notBefore'] as const) {
      const target = property[keyword];
      if (typeof target !== 'string') continue;
      const sibling = Object.hasOwn(properties, target) ? properties[target] : undefined;
      if (!sibling || target === name) {
        add(
          'UnknownField',
          ['properties', name, keyword],
          `${keyword} names "${target}", which is not another field of the same schema`,
        );
      } else if (
        keyword === 'notBefore' &&
        (sibling.format !== property.format || !['date', 'date-time', 'period'].includes(String(property.format)))
      ) {
        add(
          'SchemaViolation',
          ['properties', name, keyword],
          `notBefore compares "${name}" with "${target}" as text, so both need the same date format (date, date-time or period)`,
        );
      }
    }
  }
  return errors;
}

/**
 * A business rule (`if` / `then` / `else` of the entity schema, or of its `allOf` items) names fields of the entity: a
 * misspelt one would not fail to compile, it would make the rule test or demand a field no form has.
 */
export function businessRuleErrors(file: string, schema: object, pointer: Pointer): ManifestError[] {
  const fields = new Set(Object.keys(propertiesOf(schema)));
  const { errors, add } = errorsAt(file, pointer);
  const check = (rule: unknown, at: (string | number)[]) => {
    if (rule === null || typeof rule !== 'object') return;
    const { properties, required } = rule as { properties?: unknown; required?: unknown };
    for (const name of Object.keys((properties ?? {}) as object)) {
      if (!fields.has(name))
        add('UnknownField', [...at, 'properties', name], `a business rule names "${name}", which the entity lacks`);
    }
    (Array.isArray(required) ? required : []).forEach((name, i) => {
      if (!fields.has(String(name)))
        add('UnknownField', [...at, 'required', i], `a business rule names "${String(name)}", which the entity lacks`);
    });
  };
  const rulesOf = (node: Record<string, unknown>, at: (string | number)[]) => {
    for (const keyword of ['if', 'then', 'else']) check(node[keyword], [...at, keyword]);
  };
  rulesOf(schema as Record<string, unknown>, []);
  const allOf = (schema as { allOf?: unknown }).allOf;
  if (Array.isArray(allOf))
    allOf.forEach(
      (item, i) => item && typeof item === 'object' && rulesOf(item as Record<string, unknown>, ['allOf', i]),
    );
  return errors;
}

/**
 * An enum field's `enumLabels` names every value of its enum, and nothing else: a label for a value the field cannot
 * hold would show nowhere, and a value without one would show as a code.
 */
export function enumLabelErrors(file: string, schema: object, pointer: Pointer): ManifestError[] {
  const properties = propertiesOf(schema);
  const { errors, add } = errorsAt(file, pointer);
  for (const [name, property] of Object.entries(properties)) {
    const labels = property.enumLabels;
    if (labels === undefined || labels === null || typeof labels !== 'object') continue;
    const values = Array.isArray(property.enum) ? property.enum.map(String) : null;
    if (!values) {
      add(
        'SchemaViolation',
        ['properties', name, 'enumLabels'],
        `enumLabels label the values of an enum, and "${name}" has none`,
      );
      continue;
    }
    for (const value of Object.keys(labels)) {
      if (!values.includes(value))
        add(
          'SchemaViolation',
          ['properties', name, 'enumLabels', value],
          `"${value}" is not a value of the enum of "${name}"`,
        );
    }
    const unlabelled = values.filter((value) => !Object.hasOwn(labels, value));
    if (unlabelled.length > 0) {
      add(
        'SchemaViolation',
        ['properties', name, 'enumLabels'],
        `no label for ${unlabelled.map((value) => `"${value}"`).join(', ')}`,
      );
    }
  }
  return errors;
}

/**
 * A `valueUnit` belongs on a number; one by an enum sibling names that sibling and only values it can hold, and gives a
 * unit for each, or a value would read as a bare number.
 */
export function unitErrors(file: string, schema: object, pointer: Pointer): ManifestError[] {
  const properties = propertiesOf(schema);
  const { errors, add } = errorsAt(file, pointer);
  for (const [name, property] of Object.entries(properties)) {
    const unit = property.valueUnit;
    if (unit === undefined) continue;
    if (property.type !== 'number' && property.type !== 'integer') {
      add('SchemaViolation', ['properties', name, 'valueUnit'], `a unit belongs on a number, and "${name}" is not one`);
    }
    if (unit === null || typeof unit !== 'object') continue;
    const { field, units } = unit as { field: string; units: Record<string, string> };
    const values =
      Object.hasOwn(properties, field) && Array.isArray(properties[field]!.enum)
        ? (properties[field]!.enum as unknown[]).map(String)
        : null;
    if (!values) {
      add(
        'UnknownField',
        ['properties', name, 'valueUnit', 'field'],
        `the unit of "${name}" follows "${field}", which is not an enum field of the same schema`,
      );
      continue;
    }
    const unknown = Object.keys(units).filter((value) => !values.includes(value));
    const missing = values.filter((value) => !Object.hasOwn(units, value));
    if (unknown.length + missing.length > 0) {
      const wrong = [
        ...unknown.map((value) => `"${value}" is not one`),
        ...missing.map((value) => `"${value}" has none`),
      ];
      add(
        'SchemaViolation',
        ['properties', name, 'valueUnit', 'units'],
        `the units of "${name}" must name each value of "${field}" once (${wrong.join(', ')})`,
      );
    }
  }
  return errors;
}

/**
 * A mobile number is stored in one form (its ten digits), however it was typed: a `format: "mobile"` field says so
 * with `normalise: "mobile"`, and only such a field does.
 */
export function normaliseErrors(file: string, schema: object, pointer: Pointer): ManifestError[] {
  const properties = propertiesOf(schema);
  const { errors, add } = errorsAt(file, pointer);
  for (const [name, property] of Object.entries(properties)) {
    const mobile = property.format === 'mobile';
    if (mobile && property.normalise !== 'mobile') {
      add(
        'SchemaViolation',
        ['properties', name],
        `"${name}" is a mobile number: add "normalise": "mobile", so that it is stored as its ten digits however it is typed`,
      );
    } else if (!mobile && property.normalise === 'mobile') {
      add(
        'SchemaViolation',
        ['properties', name, 'normalise'],
        `"normalise": "mobile" belongs on a field of format "mobile", and "${name}" is not one`,
      );
    }
  }
  return errors;
}

/**
 * Money is declared, never guessed from a name: `format: "money"` on a number, with its `currency`; a currency belongs
 * on such a field only, and money is its unit (no `valueUnit` beside it).
 */
export function moneyErrors(file: string, schema: object, pointer: Pointer): ManifestError[] {
  const properties = propertiesOf(schema);
  const { errors, add } = errorsAt(file, pointer);
  const refuse = (name: string, at: string[], message: string) =>
    add('SchemaViolation', ['properties', name, ...at], message);
  for (const [name, property] of Object.entries(properties)) {
    if (property.format !== 'money') {
      if (property.currency !== undefined)
        refuse(name, ['currency'], `a currency belongs on a field of format "money", and "${name}" is not one`);
      continue;
    }
    if (property.type !== 'number')
      refuse(name, ['format'], `"money" is a format of numbers (amounts to the paisa), and "${name}" is no number`);
    if (property.currency === undefined)
      refuse(name, [], `"${name}" is money: say its currency, e.g. "currency": "INR"`);
    if (property.valueUnit !== undefined)
      refuse(name, ['valueUnit'], `"${name}" is money, which is its unit: remove valueUnit`);
  }
  return errors;
}

/** The formats that give a text field its widget (a password input, an image's preview and upload): strings only. */
const TEXT_WIDGET_FORMATS = new Set(['password', 'image-url']);

/** A widget is declared by its format, never guessed from a name, so a format asking for one is on a string. */
export function widgetFormatErrors(
  file: string,
  schema: object,
  pointer: (...rest: (string | number)[]) => string,
): ManifestError[] {
  return Object.entries(((schema as { properties?: unknown }).properties ?? {}) as Properties)
    .filter(([, property]) => TEXT_WIDGET_FORMATS.has(String(property.format)) && property.type !== 'string')
    .map(([name, property]) =>
      manifestError(
        'SchemaViolation',
        file,
        pointer('properties', name, 'format'),
        `"${String(property.format)}" is a format of text, and "${name}" is no string`,
      ),
    );
}
