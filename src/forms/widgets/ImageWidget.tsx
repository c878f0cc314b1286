import type { WidgetProps } from '@rjsf/utils';
import { ariaDescribedByIds } from '@rjsf/utils';
import { useState } from 'react';

/** An image address with a live preview of what it points at (banners' image_url). */
export function ImageWidget({ id, value, required, disabled, readonly, onChange, onBlur, onFocus, rawErrors, label }: WidgetProps) {
  const url = typeof value === 'string' ? value : '';
  const [failedUrl, setFailedUrl] = useState<string | null>(null);
  const parse = (raw: string) => (raw === '' ? undefined : raw);
  return (
    <span className="image-input">
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
        aria-invalid={(rawErrors?.length ?? 0) > 0 || undefined}
        aria-describedby={ariaDescribedByIds(id)}
        onChange={(event) => onChange(parse(event.target.value))}
        onBlur={(event) => onBlur(id, parse(event.target.value))}
        onFocus={(event) => onFocus(id, parse(event.target.value))}
      />
      {url && failedUrl !== url && (
        <img className="image-input__preview" src={url} alt={`Preview of ${label || 'the image'}`} onError={() => setFailedUrl(url)} />
      )}
      {url && failedUrl === url && <span className="image-input__missing">No image at this address.</span>}
    </span>
  );
}
