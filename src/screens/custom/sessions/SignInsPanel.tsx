import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { SIGN_IN_OUTCOMES, type SignInAnswer } from '../../../../contract/signIns.ts';
import { http } from '../../../http/index.ts';
import { formatDate } from '../../shared/formatValue.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import './sessions.css';

const SIGN_INS_PER_PAGE = 10;

export interface SignInsPanelProps {
  /** `user` for the caller's own history, `users/12` for an administrator's view of user 12's. */
  owner: string;
  title: string;
}

/** Sign-in attempts on the account, newest first: when, the outcome in words, the address and the browser. */
export function SignInsPanel({ owner, title }: SignInsPanelProps) {
  const [page, setPage] = useState(1);
  const signIns = useQuery({
    queryKey: ['sign-ins', owner, page],
    queryFn: ({ signal }) =>
      http.get<{ data: SignInAnswer[]; meta: { total: number } }>(`${owner}/sign-ins`, {
        signal,
        params: { _page: page, _page_size: SIGN_INS_PER_PAGE },
      }),
    placeholderData: keepPreviousData,
  });
  const headingId = `sign-ins-${owner.replace(/\W/g, '-')}`;
  const total = signIns.data?.meta.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / SIGN_INS_PER_PAGE));

  return (
    <section className="panel" aria-labelledby={headingId}>
      <h2 id={headingId}>{title}</h2>
      <QueryState query={signIns} what="the sign-ins">
        {total === 0 && <p>No sign-in recorded yet.</p>}
        <ul className="session-list">
          {signIns.data?.data.map((signIn) => (
            <li key={signIn.id} className="session-list__item">
              <div className="session-list__main">
                <strong>{SIGN_IN_OUTCOMES[signIn.outcome] ?? signIn.outcome}</strong>
                <span>{formatDate(signIn.at, true)}</span>
              </div>
              <p className="session-list__facts" title={signIn.user_agent ?? undefined}>
                {signIn.browser} · {signIn.client_address ?? 'unknown address'}
              </p>
            </li>
          ))}
        </ul>
        {pages > 1 && (
          <nav className="pagination" aria-label={`${title} pages`}>
            <p className="pagination__range">
              Page {page} of {pages}
            </p>
            <div className="pagination__buttons">
              <button type="button" className="button" disabled={page === 1} onClick={() => setPage(page - 1)}>
                Newer
              </button>
              <button type="button" className="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                Older
              </button>
            </div>
          </nav>
        )}
      </QueryState>
    </section>
  );
}
