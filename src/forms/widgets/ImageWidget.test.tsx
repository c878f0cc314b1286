import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { screen, render, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { http as mock, HttpResponse, delay } from 'msw';
import { useState } from 'react';
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { JsonSchema } from '../../generated/types.ts';
import { api, setupApiServer } from '../../test/apiServer.ts';
import { SchemaForm } from '../index.ts';
import type { FormData } from '../precompiledValidator.ts';
import { compileValidator } from '../testing/compileValidator.ts';

const server = setupApiServer();

const SCHEMA: JsonSchema = {
  type: 'object',
  required: ['title', 'image_url'],
  properties: {
    title: { title: 'Title', type: 'string', maxLength: 100 },
    image_url: { title: 'Image URL', type: 'string', format: 'uri', maxLength: 2048 },
  },
};
const validate = compileValidator(SCHEMA);
const UI = { image_url: { 'ui:widget': 'image' } };

function Harness({ onSubmit }: { onSubmit: (data: FormData) => void }) {
  const [formData, setFormData] = useState<FormData>({});
  return (
    <QueryClientProvider client={new QueryClient()}>
      <SchemaForm
        label="Banner"
        schema={SCHEMA}
        uiSchema={UI}
        validate={validate}
        formData={formData}
        onChange={setFormData}
        onSubmit={onSubmit}
        submitLabel="Save"
      />
    </QueryClientProvider>
  );
}

const png = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3])], 'diwali.png', {
    type: 'image/png',
  });
const picker = () => screen.getByLabelText(/^Upload image/) as HTMLInputElement;
const urlField = () => screen.getByLabelText(/^Image URL/) as HTMLInputElement;

describe('ImageWidget', () => {
  it('uploads the picked file as multipart "file", shows Uploading…, then fills the URL and shows the preview', async () => {
    let contentType: string | null = null;
    let fields: string[] = [];
    // The form as the widget builds it: Node's fetch, which the mock server reads the request with, loses the bytes of
    // jsdom's File on the way, so the file is taken where the widget appends it.
    const appended = vi.spyOn(globalThis.FormData.prototype, 'append');
    onTestFinished(() => appended.mockRestore());
    server.use(
      mock.post(api('banners/image'), async ({ request }) => {
        contentType = request.headers.get('content-type');
        fields = [...(await request.formData()).keys()];
        await delay(50);
        return HttpResponse.json(
          { data: { url: '/api/v1/banners/images/0123456789abcdef0123456789abcdef.png' } },
          { status: 201 },
        );
      }),
    );
    const submitted: FormData[] = [];
    const user = userEvent.setup();
    render(<Harness onSubmit={(data) => submitted.push(data)} />);
    await user.type(screen.getByLabelText(/^Title/), 'Diwali sale');
    await user.upload(picker(), png());
    expect(await screen.findByRole('status')).toHaveTextContent('Uploading…');
    await waitFor(() => expect(urlField().value).toBe('/api/v1/banners/images/0123456789abcdef0123456789abcdef.png'));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: /Preview of/ })).toHaveAttribute(
      'src',
      '/api/v1/banners/images/0123456789abcdef0123456789abcdef.png',
    );
    expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(fields).toEqual(['file']);
    const file = appended.mock.calls.find(([name]) => name === 'file')?.[1];
    expect(file).toBeInstanceOf(File);
    expect(new Uint8Array(await (file as File).arrayBuffer())).toEqual(
      new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]),
    );
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(submitted).toEqual([
        { title: 'Diwali sale', image_url: '/api/v1/banners/images/0123456789abcdef0123456789abcdef.png' },
      ]),
    );
  });

  it('shows a refused upload on the field and keeps the rest of the form', async () => {
    server.use(
      mock.post(api('banners/image'), () =>
        HttpResponse.json({ message: 'Only PNG, JPEG or WebP images can be uploaded.' }, { status: 415 }),
      ),
    );
    const user = userEvent.setup();
    render(<Harness onSubmit={() => undefined} />);
    await user.type(screen.getByLabelText(/^Title/), 'Keep me');
    await user.type(urlField(), 'https://cdn.example.com/old.png');
    await user.upload(picker(), new File(['not an image'], 'fake.png', { type: 'image/png' }));
    const alert = await screen.findByText('Only PNG, JPEG or WebP images can be uploaded.', {
      selector: '.field-error',
    });
    expect(urlField()).toHaveAttribute('aria-invalid', 'true');
    expect(urlField().getAttribute('aria-describedby')).toContain(alert.id);
    expect((screen.getByLabelText(/^Title/) as HTMLInputElement).value).toBe('Keep me');
    expect(urlField().value).toBe('https://cdn.example.com/old.png');
    expect(picker()).not.toBeDisabled();
  });

  it('refuses a file over 2 MiB without sending it', async () => {
    const user = userEvent.setup();
    render(<Harness onSubmit={() => undefined} />);
    await user.upload(picker(), new File([new Uint8Array(2 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' }));
    expect(await screen.findByText('The image is larger than 2 MiB.')).toBeInTheDocument();
    expect(urlField().value).toBe('');
  });
});
