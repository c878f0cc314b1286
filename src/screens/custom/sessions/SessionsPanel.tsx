import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SessionAnswer } from '../../../../contract/signIns.ts';
import { http } from '../../../http/index.ts';
import { toastSuccess } from '../../../shell/index.ts';
import { formatDate } from '../../shared/formatValue.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import './sessions.css';

/** At most this many sessions are listed; a person rarely has more live at once. */
const SESSIONS_SHOWN = 50;

export interface SessionsPanelProps {
  /** `user` for the caller's own sessions, `users/12` for an administrator's view of user 12's. */
  owner: string;
  title: string;
  /** Whether "End" is offered (an administrator without USERS edit only reads). */
  canEnd: boolean;
  /** "Sign out everywhere else": only for the caller's own sessions. */
  everywhereElse?: boolean;
}

/**
 * Live sessions, this one marked, each with where and with which browser it signed in and when it was last used;
 * "End" on each other one, and "Sign out everywhere else" (docs/api.md, "Sessions and sign-in history").
 */
export function SessionsPanel({ owner, title, canEnd, everywhereElse = false }: SessionsPanelProps) {
  const queryClient = useQueryClient();
  const queryKey = ['sessions', owner];
  const sessions = useQuery({
    queryKey,
    queryFn: ({ signal }) =>
      http
        .get<{ data: SessionAnswer[] }>(`${owner}/sessions`, { signal, params: { _page_size: SESSIONS_SHOWN } })
        .then((body) => body.data),
  });
  const ended = (body: { message: string }) => {
    toastSuccess(body.message);
    void queryClient.invalidateQueries({ queryKey });
  };
  const end = useMutation({
    mutationFn: (id: string) => http.delete<{ message: string }>(`${owner}/sessions/${id}`),
    onSuccess: ended,
  });
  const endOthers = useMutation({
    mutationFn: () => http.delete<{ message: string }>(`${owner}/sessions`),
    onSuccess: ended,
  });
  const headingId = `sessions-${owner.replace(/\W/g, '-')}`;
  const others = sessions.data?.filter((session) => !session.current) ?? [];

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <QueryState query={sessions} what="the sessions">
        {sessions.data?.length === 0 && <p>No live session.</p>}
        <ul className="session-list">
          {sessions.data?.map((session) => (
            <li key={session.id} className="session-list__item">
              <div className="session-list__main">
                <strong>{session.browser}</strong>
                {session.current && <span className="status-badge">This session</span>}
              </div>
              <p className="session-list__facts" title={session.user_agent ?? undefined}>
                Signed in {formatDate(session.created_at, true)} · last used {formatDate(session.last_used_at, true)} ·{' '}
                {session.client_address ?? 'unknown address'}
              </p>
              {canEnd && !session.current && (
                <button
                  type="button"
                  className="button button--danger"
                  aria-label={`End the session of ${session.browser} signed in ${formatDate(session.created_at, true)}`}
                  disabled={end.isPending}
                  onClick={() => end.mutate(session.id)}
                >
                  End
                </button>
              )}
            </li>
          ))}
        </ul>
        {everywhereElse && canEnd && others.length > 0 && (
          <div>
            <button type="button" className="button" disabled={endOthers.isPending} onClick={() => endOthers.mutate()}>
              Sign out everywhere else
            </button>
          </div>
        )}
      </QueryState>
    </section>
  );
}
