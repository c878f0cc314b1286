import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import {
  API_TOKEN_EXPIRY_CHOICES,
  API_TOKEN_LIMITS,
  type ApiTokenAnswer,
  type TokenPermissions,
} from '../../../../contract/apiTokens.ts';
import { http, isApiError } from '../../../http/index.ts';
import { usePermissions } from '../../../permissions/index.ts';
import { CopyableSecret } from '../../shared/CopyableSecret.tsx';
import { FormDialog } from '../../shared/FormDialog.tsx';
import { InfoDialog } from '../../shared/InfoDialog.tsx';
import { ModuleFinder } from '../../shared/ModuleFinder.tsx';
import { formatDate } from '../../shared/formatValue.ts';
import { actionLabel, moduleChoices } from './tokenPermissions.ts';

const DAY_MS = 86_400_000;

interface Made {
  data: ApiTokenAnswer & { token: string };
  message: string;
}

export interface NewTokenDialogProps {
  /** The tokens' API path (`api-tokens`). */
  api: string;
  onClose: (made: boolean) => void;
}

/** Refusals the dialog says itself, beside the fields; any other failure gets the console's error toast. */
const SHOWN_HERE = [400, 409];

/**
 * Makes an API token: a name, how long it lives and what it may do (only what the user may do), then its secret,
 * shown this once with a copy button. What was typed stays when the server refuses it.
 */
export function NewTokenDialog({ api, onClose }: NewTokenDialogProps) {
  const { permissions } = usePermissions();
  const choices = moduleChoices(permissions ?? {});
  const [name, setName] = useState('');
  const [days, setDays] = useState<number>(90);
  const [chosen, setChosen] = useState<TokenPermissions>({});
  const [find, setFind] = useState('');
  const nameId = useId();
  const daysId = useId();
  const errorId = useId();
  const make = useMutation({
    mutationFn: () =>
      http.post<Made>(
        api,
        { name, permissions: chosen, expires_at: new Date(Date.now() + days * DAY_MS).toISOString() },
        { shownByCaller: SHOWN_HERE },
      ),
  });
  const refused = isApiError(make.error) && SHOWN_HERE.includes(make.error.status) ? make.error : null;
  const errors = refused?.fieldErrors ?? {};
  const refusal = refused && Object.keys(errors).length === 0 ? refused.message : null;
  const wanted = find.trim().toLowerCase();
  // Ticked modules stay in sight while another is looked for.
  const shown = choices.filter(
    (choice) => !wanted || choice.label.toLowerCase().includes(wanted) || chosen[choice.module],
  );
  const picked = Object.values(chosen).reduce((count, actions) => count + actions.length, 0);

  const toggle = (module: string, action: string, on: boolean) =>
    setChosen((before) => {
      const actions = new Set(before[module] ?? []);
      if (on) actions.add(action);
      else actions.delete(action);
      const { [module]: _left, ...rest } = before;
      return actions.size > 0 ? { ...rest, [module]: [...actions] } : rest;
    });

  if (make.data) return <TokenSecret made={make.data} onClose={() => onClose(true)} />;
  return (
    <FormDialog
      title="New API token"
      className="api-token-form"
      ready={name.trim() !== '' && picked > 0}
      busy={make.isPending}
      submitLabel="Make the token"
      busyLabel="Making…"
      refusal={refusal}
      onSubmit={() => make.mutate()}
      onCancel={() => onClose(false)}
    >
      <div className="field">
        <label htmlFor={nameId}>Name</label>
        <input
          id={nameId}
          value={name}
          required
          maxLength={API_TOKEN_LIMITS.nameLength}
          placeholder="Billing system"
          aria-describedby={errors.name ? `${nameId}-error` : undefined}
          onChange={(event) => setName(event.target.value)}
        />
        <p className="field-help">Say which system uses it, so whoever reads the audit log knows.</p>
        {errors.name && (
          <p id={`${nameId}-error`} className="field-error">
            {errors.name}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={daysId}>Expires after</label>
        <select id={daysId} value={days} onChange={(event) => setDays(Number(event.target.value))}>
          {API_TOKEN_EXPIRY_CHOICES.map((choice) => (
            <option key={choice} value={choice}>
              {choice} days ({formatDate(new Date(Date.now() + choice * DAY_MS).toISOString(), false)})
            </option>
          ))}
        </select>
        {errors.expires_at && <p className="field-error">{errors.expires_at}</p>}
      </div>
      <fieldset className="api-token-form__permissions" aria-describedby={errorId}>
        <legend>What it may do</legend>
        <p className="field-help">
          Only what your own role may do is offered. The token acts as you would: with your scope, and in the audit log
          under its name and yours.
        </p>
        <ModuleFinder value={find} onChange={setFind} />
        {shown.length === 0 && <p role="status">No module of yours is called that.</p>}
        {shown.map((choice) => (
          <div key={choice.module} className="api-token-form__module" role="group" aria-label={choice.label}>
            <span className="api-token-form__module-name">{choice.label}</span>
            {choice.actions.map((action) => (
              <label key={action} className="api-token-form__action">
                <input
                  type="checkbox"
                  checked={chosen[choice.module]?.includes(action) ?? false}
                  onChange={(event) => toggle(choice.module, action, event.target.checked)}
                />{' '}
                {actionLabel(action)}
              </label>
            ))}
          </div>
        ))}
        <p id={errorId} className={errors.permissions ? 'field-error' : 'field-help'} aria-live="polite">
          {errors.permissions ?? (picked === 0 ? 'Tick at least one action.' : `${picked} action(s) ticked.`)}
        </p>
      </fieldset>
    </FormDialog>
  );
}

/** The secret, once: selectable, with a copy button, and what to do with it. */
function TokenSecret({ made, onClose }: { made: Made; onClose: () => void }) {
  return (
    <InfoDialog title={`API token "${made.data.name}" made`} closeLabel="Done" onClose={onClose}>
      <p>
        Copy it now and keep it where the other system keeps its secrets: <strong>it is not shown again</strong>. The
        system sends it with each request as <code>Authorization: Bearer &lt;token&gt;</code>.
      </p>
      <CopyableSecret label="The token" value={made.data.token} copiedMessage="The token is on your clipboard." />
    </InfoDialog>
  );
}
