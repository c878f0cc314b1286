import { useState } from 'react';
import './copyableSecret.css';

export interface CopyableSecretProps {
  /** The field's accessible name: "The token". */
  label: string;
  value: string;
  /** What the status line says once it was copied: "The token is on your clipboard." */
  copiedMessage: string;
}

/** A secret shown once: a read-only field that selects itself on focus, and a Copy button that says it copied. */
export function CopyableSecret({ label, value, copiedMessage }: CopyableSecretProps) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard.writeText(value);
    setCopied(true);
  };
  return (
    <>
      <div className="copyable-secret">
        <input aria-label={label} readOnly value={value} onFocus={(event) => event.target.select()} />
        <button type="button" className="button button--primary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p role="status">{copied ? copiedMessage : ''}</p>
    </>
  );
}
