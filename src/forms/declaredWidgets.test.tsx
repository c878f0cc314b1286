import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { FieldDescription, JsonSchema } from '../generated/types.ts';
import { formUiSchema } from './formUiSchema.ts';
import { SchemaForm } from './index.ts';
import { compileValidator } from './testing/compileValidator.ts';

/** Two fields named as a password and an image would be, without their format, and two with it under other names. */
const SCHEMA: JsonSchema = {
  type: 'object',
  properties: {
    password: { title: 'Password', type: 'string' },
    secret: { title: 'Secret', type: 'string', format: 'password' },
    image: { title: 'Image', type: 'string' },
    poster: { title: 'Poster', type: 'string', format: 'image-url' },
  },
};

const fields: FieldDescription[] = Object.entries(SCHEMA.properties as Record<string, Record<string, unknown>>).map(
  ([name, property]) => ({
    name,
    title: String(property.title),
    type: 'string',
    format: (property.format as string | undefined) ?? null,
    enum: null,
    enumLabels: null,
    required: false,
    writeOnly: false,
    system: false,
    relation: null,
  }),
);

const field = (label: string) => screen.getByLabelText(new RegExp(`^${label}$`)) as HTMLInputElement;

describe('a form gives a field a widget by its declared format, never by its name', () => {
  it('takes "password" and "image" as plain text, and the declared password and image address in their widgets', () => {
    render(
      <QueryClientProvider client={new QueryClient()}>
        <SchemaForm
          label="Declared widgets"
          schema={SCHEMA}
          validate={compileValidator(SCHEMA)}
          uiSchema={formUiSchema(fields, {})}
          formData={{}}
          onChange={() => undefined}
          onSubmit={() => undefined}
          serverErrors={null}
          submitLabel="Save"
        />
      </QueryClientProvider>,
    );
    expect(field('Password')).toHaveAttribute('type', 'text');
    expect(field('Secret')).toHaveAttribute('type', 'password');
    expect(field('Image')).toHaveAttribute('type', 'text');
    expect(field('Poster')).toHaveAttribute('type', 'url');
    expect(screen.getAllByLabelText(/^Upload image/)).toHaveLength(1);
  });
});
