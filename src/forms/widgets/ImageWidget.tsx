import type { WidgetProps } from '@rjsf/utils';
import { useState, type ChangeEvent } from 'react';
import { http, isApiError } from '../../http/index.ts';
import { controlAttributes, valueEvents } from './widgetInput.ts';

/** Where the picked file goes (docs/api.md, "Beyond CRUD"): answers `{ data: { url } }`. */
export const IMAGE_UPLOAD_PATH = 'banners/image';
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * An image address with a live preview of what it points at (banners' image_url), and a file picker that
 * uploads a PNG, JPEG or WebP and fills the address in with where the server stored it.
 */
export function ImageWidget(props: WidgetProps) {
  const { id, value, disabled, readonly, onChange, label } = props;
  const url = typeof value === 'string' ? value : '';
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const uploadErrorId = `${id}__upload-error`;

  const upload = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    // The same file may be picked again after an error.
    event.target.value = '';
    if (!file) return;
    setUploadError(null);
    if (file.type && !IMAGE_TYPES.includes(file.type))
      return setUploadError('Only PNG, JPEG or WebP images can be uploaded.');
    if (file.size > IMAGE_MAX_BYTES) return setUploadError('The image is larger than 2 MiB.');
    const formData = new FormData();
    formData.append('file', file);
    setUploading(true);
    try {
      const response = await http.post<{ data: { url: string } }>(IMAGE_UPLOAD_PATH, formData, { loader: false });
      onChange(response.data.url);
    } catch (error) {
      setUploadError(
        isApiError(error) ? (error.fieldErrors.file ?? error.message) : 'The image could not be uploaded.',
      );
    } finally {
      setUploading(false);
    }
  };

  const locked = disabled || readonly;
  return (
    <span className="image-input">
      <span className="image-input__row">
        <input
          {...controlAttributes(props, {
            text: true,
            invalid: uploadError !== null,
            describedBy: uploadError ? uploadErrorId : null,
          })}
          {...valueEvents<HTMLInputElement>(props, (input) => (input.value === '' ? undefined : input.value))}
          type="url"
          value={url}
          placeholder="https://…"
        />
        {!locked && (
          <label className="button image-input__upload" aria-disabled={uploading || undefined}>
            {uploading ? 'Uploading…' : 'Upload image'}
            <input
              type="file"
              className="visually-hidden"
              accept={IMAGE_TYPES.join(',')}
              disabled={uploading}
              aria-label={`Upload image for ${label || 'this field'}`}
              onChange={(event) => void upload(event)}
            />
          </label>
        )}
      </span>
      {uploading && (
        <span className="image-input__status" role="status">
          <progress aria-label="Uploading image" /> Uploading…
        </span>
      )}
      {uploadError && (
        <span id={uploadErrorId} className="field-error" role="alert">
          {uploadError}
        </span>
      )}
      {url && failedUrl !== url && (
        <img
          className="image-input__preview"
          src={url}
          alt={`Preview of ${label || 'the image'}`}
          onError={() => setFailedUrl(url)}
        />
      )}
      {url && failedUrl === url && <span className="image-input__missing">No image at this address.</span>}
    </span>
  );
}
