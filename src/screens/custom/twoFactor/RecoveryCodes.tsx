import { toastSuccess } from '../../../shell/index.ts';

export interface RecoveryCodesProps {
  codes: string[];
  onDone: () => void;
}

/** The ten recovery codes, shown this once: to copy or download before leaving. */
export function RecoveryCodes({ codes, onDone }: RecoveryCodesProps) {
  const text = `${codes.join('\n')}\n`;
  const copy = async () => {
    await navigator.clipboard.writeText(text);
    toastSuccess('Recovery codes copied.');
  };
  const download = () => {
    const link = document.createElement('a');
    link.href = URL.createObjectURL(new Blob([text], { type: 'text/plain' }));
    link.download = 'recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(link.href);
  };
  return (
    <div className="two-factor__codes">
      <p>
        <strong>Keep these recovery codes somewhere safe.</strong> Each signs you in once if you lose your phone. They
        are not shown again.
      </p>
      <ul aria-label="Recovery codes" className="two-factor__code-list">
        {codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="two-factor__actions">
        <button type="button" className="button" onClick={() => void copy()}>
          Copy
        </button>
        <button type="button" className="button" onClick={download}>
          Download
        </button>
        <button type="button" className="button button--primary" onClick={onDone}>
          I have kept them
        </button>
      </div>
    </div>
  );
}
