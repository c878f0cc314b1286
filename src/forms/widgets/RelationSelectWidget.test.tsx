import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse } from 'msw';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import type { JsonSchema } from '../../generated/types.ts';
import { api, setupApiServer } from '../../test/apiServer.ts';
import { SchemaForm } from '../index.ts';
import type { FormData } from '../precompiledValidator.ts';
import { compileValidator } from '../testing/compileValidator.ts';

const server = setupApiServer();

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['feature_ids'],
  properties: { feature_ids: { title: 'Features', type: 'array', uniqueItems: true, items: { type: 'integer' } } },
};
const UI = { feature_ids: { 'ui:widget': 'relation', 'ui:options': { api: 'features' } } };

function Harness({ onSubmit }: { onSubmit: (data: FormData) => void }) {
  const [formData, setFormData] = useState<FormData>({});
  return (
    <QueryClientProvider client={new QueryClient()}>
      <SchemaForm
        label="Plan"
        schema={SCHEMA}
        uiSchema={UI}
        validate={compileValidator(SCHEMA)}
        formData={formData}
        onChange={setFormData}
        onSubmit={onSubmit}
        submitLabel="Save"
      />
    </QueryClientProvider>
  );
}

describe('RelationSelectWidget on an array of ids', () => {
  it('offers the related options in a multi-select, required and described as the form says, and sends the ids as numbers', async () => {
    server.use(
      mock.get(api('features/options'), () =>
        HttpResponse.json({
          data: [
            { value: 1, label: 'Search' },
            { value: 2, label: 'Download' },
          ],
        }),
      ),
    );
    const user = userEvent.setup();
    const onSubmit = vi.fn();
    render(<Harness onSubmit={onSubmit} />);
    const select = screen.getByLabelText(/^Features/) as HTMLSelectElement;
    expect(select).toHaveAttribute('multiple');
    expect(select).toBeRequired();
    expect(select).toHaveAttribute('name', select.id);
    expect(select.getAttribute('aria-describedby')).toContain(select.id);
    await screen.findByRole('option', { name: 'Download' });
    await user.selectOptions(select, ['1', '2']);
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith(expect.objectContaining({ feature_ids: [1, 2] }));
  });
});
