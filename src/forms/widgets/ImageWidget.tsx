import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useState, type ChangeEvent } from 'react';
import { http, isApiError } from '../../http/index.ts';

/** Where the picked file goes (docs/api.md, "Beyond CRUD"): answers `{ data: { url } }`. */
export const IMAGE_UPLOAD_PATH = 'banners/image';
export const IMAGE_MAX_BYTES = 2 * 1024 * 1024;
const IMAGE_TYPES = ['image/png', 'image/jpeg', 'image/webp'];

/**
 * An image address with a live preview of what it points at (banners' image_url), and a file picker that
 * uploads a PNG, JPEG or WebP and fills the address in with where the server stored it.
 */
export function ImageWidget({
  id,
  value,
  required,
  disabled,
  readonly,
  onChange,
  onBlur,
  onFocus,
  rawErrors,
  label,
}: WidgetProps) {
  const url = typeof value === 'string' ? value : '';
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const parse = (raw: string) => (raw === '' ? undefined : raw);
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
  const invalid = (rawErrors?.length ?? 0) > 0 || uploadError !== null;
  return (
    <span className="image-input">
      <span className="image-input__row">
        <input
          id={id}
          name={id}
          type="url"
          className="form-control"
          value={url}
          placeholder="https://…"
          required={required}
          disabled={disabled}
          readOnly={readonly}
          aria-invalid={invalid || undefined}
          aria-describedby={[ariaDescribedByIds(id), uploadError ? uploadErrorId : ''].filter(Boolean).join(' ')}
          onChange={(event) => onChange(parse(event.target.value))}
          onBlur={(event) => onBlur(id, parse(event.target.value))}
          onFocus={(event) => onFocus(id, parse(event.target.value))}
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
