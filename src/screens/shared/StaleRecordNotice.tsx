import { BusyButton } from './BusyButton.tsx';

export type StaleRecordState =
  { kind: 'stale' } | { kind: 'reloaded'; changed: readonly string[]; keptTyped: readonly string[] };

export interface StaleRecordNoticeProps {
  /** "voucher" */
  what: string;
  state: StaleRecordState;
  reloading: boolean;
  onReload: () => void;
}

/**
 * A save refused because someone changed the record since it was opened (412), and then what Reload brought: the
 * latest version under the user's own typing, and which fields the other change touched.
 */
export function StaleRecordNotice({ what, state, reloading, onReload }: StaleRecordNoticeProps) {
  if (state.kind === 'reloaded') {
    const theirsOnly = state.changed.filter((title) => !state.keptTyped.includes(title));
    return (
      <div role="status" className="form-notice">
        <p>
          Loaded the latest version of this {what}.{' '}
          {state.changed.length === 0 && 'None of the fields in this form were changed by them.'}
        </p>
        {theirsOnly.length > 0 && <p>Changed by someone else, now shown: {theirsOnly.join(', ')}.</p>}
        {state.keptTyped.length > 0 && (
          <p>Changed by both of you, your value kept: {state.keptTyped.join(', ')}. Saving replaces their value.</p>
        )}
        <p>What you typed is kept; save to apply it to the latest version.</p>
      </div>
    );
  }
  return (
    <div role="alert" className="form-alert">
      <p>
        This {what} was changed by someone else since you opened it, so your changes were not saved. Reload to get the
        latest version: what you typed stays in the form.
      </p>
      <BusyButton onClick={onReload} busy={reloading} busyLabel="Reloading…">
        Reload
      </BusyButton>
    </div>
  );
}
