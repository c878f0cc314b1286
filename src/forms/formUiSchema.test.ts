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

describe('formUiSchema: widgets by the declared format, never by the name', () => {
  const text = (name: string, format: string | null = null) => number(name, { type: 'string', format });

  it('gives the password input to a field of format "password" only, whatever its name', () => {
    const uiSchema = formUiSchema([text('secret', 'password'), text('password'), text('old_password')], {});
    expect(uiSchema.secret).toEqual({ 'ui:widget': 'password' });
    expect(uiSchema.password).toBeUndefined();
    expect(uiSchema.old_password).toBeUndefined();
  });

  it('gives the image preview to a field of format "image-url" only, and none to a uri named image_url', () => {
    const uiSchema = formUiSchema([text('banner', 'image-url'), text('image'), text('image_url', 'uri')], {});
    expect(uiSchema.banner).toEqual({ 'ui:widget': 'image' });
    expect(uiSchema.image).toBeUndefined();
    expect(uiSchema.image_url).toBeUndefined();
  });
});
