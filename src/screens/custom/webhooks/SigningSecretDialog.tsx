import { CopyableSecret } from '../../shared/CopyableSecret.tsx';
import { InfoDialog } from '../../shared/InfoDialog.tsx';
import type { WebhookWithSecret } from './webhookQueries.ts';

export interface SigningSecretDialogProps {
  answer: WebhookWithSecret;
  /** A new secret of a webhook made before (its old one stopped working), rather than a new webhook's first. */
  renewed: boolean;
  onClose: () => void;
}

/** A webhook's signing secret, once: selectable, with a copy button, and how its receiver checks a delivery with it. */
export function SigningSecretDialog({ answer, renewed, onClose }: SigningSecretDialogProps) {
  const { name, secret } = answer.data;
  return (
    <InfoDialog
      title={renewed ? `New signing secret of "${name}"` : `Webhook "${name}" made`}
      closeLabel="Done"
      bodyClassName="webhook-secret"
      onClose={onClose}
    >
      <p>
        {renewed && 'The old secret no longer signs anything: give the receiver this one now. '}
        Copy the signing secret and keep it where the receiver keeps its secrets: <strong>it is not shown again</strong>
        .
      </p>
      <CopyableSecret
        label="The signing secret"
        value={secret}
        copiedMessage="The signing secret is on your clipboard."
      />
      <p className="webhook-help">
        Each event arrives as a POST of JSON with the headers <code>X-Webhook-Id</code> (the event&apos;s id, the same
        when it is sent again: take each id once), <code>X-Webhook-Timestamp</code> (when it was signed, in seconds
        since 1970) and <code>X-Signature: sha256=…</code>. The receiver checks that it came from here: the HMAC-SHA256
        of <code>timestamp + &quot;.&quot; + body</code> (the body exactly as received) keyed with this secret, in
        hexadecimal, must equal the signature.
      </p>
    </InfoDialog>
  );
}
