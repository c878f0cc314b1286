import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import type { WebhookAnswer } from '../../../../contract/webhooks.ts';
import { http, isApiError } from '../../../http/index.ts';
import { useStaleRecord, type UseStaleRecordResult } from '../../shared/useStaleRecord.ts';
import type { WebhookWithSecret } from './webhookQueries.ts';

/** What the form sends: the body of `POST webhooks` and `PUT webhooks/:id`. */
export interface WebhookValues {
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
}

type Field = keyof WebhookValues;

const FIELD_TITLES: Record<Field, string> = { name: 'Name', url: 'URL', events: 'Events', enabled: 'Enabled' };
const FIELDS = Object.keys(FIELD_TITLES) as Field[];

/** Refusals the dialog says itself, beside the fields; any other failure gets the console's error toast. */
const SHOWN_HERE = [400, 409];

function valuesOf(webhook: WebhookAnswer | undefined): WebhookValues {
  return webhook
    ? { name: webhook.name, url: webhook.url, events: [...webhook.events], enabled: webhook.enabled }
    : { name: '', url: '', events: [], enabled: true };
}

function same(field: Field, a: WebhookValues, b: WebhookValues): boolean {
  if (field !== 'events') return a[field] === b[field];
  const wanted = new Set(a.events);
  return a.events.length === b.events.length && b.events.every((name) => wanted.has(name));
}

export interface UseWebhookFormResult {
  values: WebhookValues;
  change: (changes: Partial<WebhookValues>) => void;
  submit: () => void;
  saving: boolean;
  /** What making a webhook answered: its signing secret, shown once. */
  made: WebhookWithSecret | undefined;
  /** The server's refusal of each field it named. */
  fieldErrors: Record<string, string>;
  /** A refusal said above the buttons: one that named no field of the form, with what it said of other fields. */
  refusal: string | null;
  stale: UseStaleRecordResult;
  /** Reads the webhook's latest version after a 412: the other change's fields come in, the user's typing stays. */
  reload: () => void;
}

/**
 * The new or edit webhook form: its values, the save (a change at the version read, `If-Match`), the refusals to say
 * beside the fields, and the conflict with a change made meanwhile.
 */
export function useWebhookForm(
  api: string,
  webhook: WebhookAnswer | undefined,
  onSaved: (message: string) => void,
): UseWebhookFormResult {
  const [values, setValues] = useState(() => valuesOf(webhook));
  // What the form was opened (or last reloaded) with, so a reload tells their change from the user's typing.
  const [baseline, setBaseline] = useState(() => valuesOf(webhook));
  const stale = useStaleRecord(webhook?.version ?? 0);
  const make = useMutation({
    mutationFn: (body: WebhookValues) => http.post<WebhookWithSecret>(api, body, { shownByCaller: SHOWN_HERE }),
  });
  const save = useMutation({
    mutationFn: (body: WebhookValues) =>
      http.putRecord<{ data: WebhookAnswer; message: string }>(`${api}/${webhook?.id}`, body, {
        ifMatch: stale.version,
        shownByCaller: SHOWN_HERE,
      }),
    onError: stale.saveFailed,
    onSuccess: (body) => onSaved(body.message),
  });
  const current = webhook ? save : make;
  const refused = isApiError(current.error) && SHOWN_HERE.includes(current.error.status) ? current.error : null;
  const fieldErrors = refused?.fieldErrors ?? {};
  const placed = FIELDS.some((field) => fieldErrors[field]);
  // An error of no field of the form is said with the refusal, so that none goes unseen.
  const unplaced = Object.entries(fieldErrors).flatMap(([field, text]) => (field in FIELD_TITLES ? [] : [text]));

  const reload = () =>
    void stale.reload(async () => {
      if (!webhook) return undefined;
      const { data: latest } = await http.get<{ data: WebhookAnswer }>(`${api}/${webhook.id}`);
      const theirs = valuesOf(latest);
      const changed = FIELDS.filter((field) => !same(field, baseline, theirs));
      const keptTyped = changed.filter((field) => !same(field, values, baseline));
      const taken = changed.filter((field) => !keptTyped.includes(field));
      setValues((typed) => ({ ...typed, ...Object.fromEntries(taken.map((field) => [field, theirs[field]])) }));
      setBaseline(theirs);
      return {
        version: latest.version,
        changed: changed.map((field) => FIELD_TITLES[field]),
        keptTyped: keptTyped.map((field) => FIELD_TITLES[field]),
      };
    });

  return {
    values,
    change: (changes: Partial<WebhookValues>) => setValues((before) => ({ ...before, ...changes })),
    submit: () => {
      if (current.isPending) return;
      stale.saving();
      current.mutate({ ...values, name: values.name.trim(), url: values.url.trim() });
    },
    saving: current.isPending,
    made: make.data,
    fieldErrors,
    refusal: refused && (!placed || unplaced.length > 0) ? [refused.message, ...unplaced].join(' ') : null,
    stale,
    reload,
  };
}
