import { describe, expect, it } from 'vitest';
import type { FieldDescription } from '../generated/types.ts';
import { formUiSchema } from './formUiSchema.ts';

const number = (name: string, declared: Partial<FieldDescription> = {}): FieldDescription => ({
  name,
  title: name,
  type: 'number',
  format: null,
  enum: null,
  enumLabels: null,
  required: false,
  writeOnly: false,
  system: false,
  relation: null,
  ...declared,
});

describe('formUiSchema: the money input', () => {
  it('takes a field of format "money" in the money input whatever its name, and a number named price as a number', () => {
    const uiSchema = formUiSchema([number('fare', { format: 'money', currency: 'INR' }), number('price')], {});
    expect(uiSchema.fare).toEqual({ 'ui:widget': 'money' });
    expect(uiSchema.price).toBeUndefined();
  });
});
