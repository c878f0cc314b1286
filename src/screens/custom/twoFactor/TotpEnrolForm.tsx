import type { FormEvent } from 'react';
import { CodeField } from './CodeField.tsx';
import './twoFactor.css';

/** `POST user/two-factor/totp` (docs/api.md, "Two-factor sign-in"). */
export interface Enrolment {
  secret: string;
  otpauth_uri: string;
  qr_code: string;
}

export interface TotpEnrolFormProps {
  enrolment: Enrolment;
  code: string;
  onCodeChange: (code: string) => void;
  busy: boolean;
  onSubmit: (event: FormEvent) => void;
  onCancel: () => void;
}

/** Enrolling an authenticator app: its QR code and key, then a first code (the profile, and sign-in when required). */
export function TotpEnrolForm({ enrolment, code, onCodeChange, busy, onSubmit, onCancel }: TotpEnrolFormProps) {
  return (
    <form onSubmit={onSubmit} aria-label="Enrol an authenticator app">
      <p>Scan this QR code with your authenticator app, or type the key below into it. Then type the code it shows.</p>
      <img className="two-factor__qr" src={enrolment.qr_code} alt="QR code for your authenticator app" />
      <p>
        Key: <code className="two-factor__secret">{enrolment.secret}</code>
      </p>
      <CodeField label="Code from the app" value={code} onChange={onCodeChange} />
      <div className="two-factor__actions">
        <button type="submit" className="button button--primary" disabled={busy}>
          Turn on
        </button>
        <button type="button" className="button" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}
