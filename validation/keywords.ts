/**
 * The custom keywords of the shared validation rules (docs/spec/seed-spec.md section 5), as ajv code-generating
 * keywords so that ajv's standalone output (the browser's precompiled validators) can contain them;
 * `enumLabels`, `valueUnit` and `currency`, which check nothing; and `normalise`, which changes the value (server only).
 */
import { _, type Code, type KeywordDefinition, type KeywordCxt } from 'ajv';
import type { DataValidationCxt } from 'ajv/dist/types/index.js';
import { operators } from 'ajv/dist/compile/codegen/index.js';
import { usePattern } from 'ajv/dist/vocabularies/code.js';
import { nationalMobile } from './formats.ts';

// Patterns go through usePattern so that ajv's standalone output recreates them (a RegExp object cannot be interpolated).
const NUMBER = '^-?\\d+(?:\\.\\d+)?$';
const PERSON_OR_PLACE_NAME = "^\\p{L}[\\p{L} .'&()-]*$";

/** rangeMin / rangeMax: a number may not lie `outside` the schema's value; the schema carries its own message. */
function rangeKeyword(keyword: 'rangeMin' | 'rangeMax', outside: Code): KeywordDefinition {
  return {
    keyword,
    type: 'number',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      properties: { value: { type: 'number' }, message: { type: 'string', minLength: 1 } },
      required: ['value', 'message'],
      additionalProperties: false,
    },
    code(cxt: KeywordCxt) {
      cxt.fail(_`${cxt.data} ${outside} ${(cxt.schema as { value: number }).value}`);
    },
  };
}

export const keywords: KeywordDefinition[] = [
  {
    keyword: 'noWhiteSpace',
    type: 'string',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      if (cxt.schema) cxt.fail(_`${cxt.data}.trim() === ""`);
    },
  },
  {
    // One stored form of a value given in several spellings: "upper" keeps a code in capitals, "mobile" keeps a mobile
    // number as its ten digits. Applied before any other check; the server's validators compile it, so every write
    // stores the one form; the console's precompiled ones leave it out (the form upper-cases codes as typed).
    keyword: 'normalise',
    type: 'string',
    schemaType: 'string',
    // First of the string keywords: a length, a pattern or a format judges the one stored form.
    before: 'maxLength',
    modifying: true,
    metaSchema: { enum: ['upper', 'mobile'] },
    compile: (kind: 'upper' | 'mobile') => (data: string, context?: DataValidationCxt) => {
      if (context?.parentData !== undefined)
        (context.parentData as Record<string | number, unknown>)[context.parentDataProperty] =
          kind === 'upper' ? data.toUpperCase() : nationalMobile(data);
      return true;
    },
  },
  {
    keyword: 'lowercaseOnly',
    type: 'string',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      if (cxt.schema) cxt.fail(_`${cxt.data} !== ${cxt.data}.toLowerCase()`);
    },
  },
  {
    keyword: 'validNumber',
    type: 'string',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      if (cxt.schema) cxt.fail(_`!${usePattern(cxt, NUMBER)}.test(${cxt.data})`);
    },
  },
  {
    keyword: 'validString',
    type: 'string',
    schemaType: 'boolean',
    code(cxt: KeywordCxt) {
      if (cxt.schema) cxt.fail(_`!${usePattern(cxt, PERSON_OR_PLACE_NAME)}.test(${cxt.data})`);
    },
  },
  {
    // The value must equal a sibling field's value, e.g. a password confirmation.
    keyword: 'compareTo',
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const parent = cxt.it.parentData;
      cxt.fail(_`${parent} && typeof ${parent} == "object" && ${cxt.data} !== ${parent}[${cxt.schema}]`);
    },
  },
  {
    // A date or year-month that must not fall before a sibling field's, e.g. valid_to and valid_from. Both are ISO
    // text of one format, so text order is date order; an empty or missing sibling is left to its own rules.
    keyword: 'notBefore',
    type: 'string',
    schemaType: 'string',
    code(cxt: KeywordCxt) {
      const parent = cxt.it.parentData;
      const other = _`${parent}[${cxt.schema}]`;
      cxt.fail(
        _`${parent} && typeof ${parent} == "object" && typeof ${other} == "string" && ${other} !== "" && ${cxt.data} !== "" && ${cxt.data} < ${other}`,
      );
    },
  },
  {
    // A numeric string within [min, max].
    keyword: 'minmaxnumber',
    type: 'string',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      properties: { min: { type: 'number' }, max: { type: 'number' } },
      required: ['min', 'max'],
      additionalProperties: false,
    },
    code(cxt: KeywordCxt) {
      const { min, max } = cxt.schema as { min: number; max: number };
      cxt.fail(
        _`!${usePattern(cxt, NUMBER)}.test(${cxt.data}) || Number(${cxt.data}) < ${min} || Number(${cxt.data}) > ${max}`,
      );
    },
  },
  {
    // At least this many items.
    keyword: 'arrayLength',
    type: 'array',
    schemaType: 'number',
    code(cxt: KeywordCxt) {
      cxt.fail(_`${cxt.data}.length < ${cxt.schema}`);
    },
  },
  {
    keyword: 'customPattern',
    type: 'string',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      properties: { pattern: { type: 'string', format: 'regex' }, message: { type: 'string', minLength: 1 } },
      required: ['pattern', 'message'],
      additionalProperties: false,
    },
    code(cxt: KeywordCxt) {
      const { pattern } = cxt.schema as { pattern: string };
      cxt.fail(_`!${usePattern(cxt, pattern)}.test(${cxt.data})`);
    },
  },
  {
    // An annotation: the console shows these labels wherever a person reads the field's value.
    keyword: 'enumLabels',
    schemaType: 'object',
    metaSchema: { type: 'object', additionalProperties: { type: 'string', minLength: 1 } },
  },
  {
    // An annotation: the currency of a `format: "money"` amount, which the console shows beside it (₹1,234.50). The
    // service bills in Indian rupees; the server counts amounts in paise.
    keyword: 'currency',
    type: 'number',
    schemaType: 'string',
    metaSchema: { enum: ['INR'] },
  },
  {
    // An annotation: what a number counts, so the console writes it as people read it ("percent": 13%), or, by an
    // enum sibling's value, which it is (a voucher's discount by its type: "rupees", ₹1,234.50, or "percent"). A field
    // that is always money says so with `format: "money"` and its `currency` instead.
    keyword: 'valueUnit',
    type: 'number',
    schemaType: ['string', 'object'],
    metaSchema: {
      anyOf: [
        { enum: ['percent'] },
        {
          type: 'object',
          additionalProperties: false,
          required: ['field', 'units'],
          properties: {
            field: { type: 'string', minLength: 1 },
            units: { type: 'object', minProperties: 1, additionalProperties: { enum: ['rupees', 'percent'] } },
          },
        },
      ],
    },
  },
  rangeKeyword('rangeMin', operators.LT),
  rangeKeyword('rangeMax', operators.GT),
  {
    keyword: 'arrayLengthMinMaxSelect',
    type: 'array',
    schemaType: 'object',
    metaSchema: {
      type: 'object',
      properties: { min: { type: 'integer' }, max: { type: 'integer' }, message: { type: 'string', minLength: 1 } },
      required: ['min', 'max', 'message'],
      additionalProperties: false,
    },
    code(cxt: KeywordCxt) {
      const { min, max } = cxt.schema as { min: number; max: number };
      cxt.fail(_`${cxt.data}.length < ${min} || ${cxt.data}.length > ${max}`);
    },
  },
];
