import { useQuery } from '@tanstack/react-query';
import { Navigate } from 'react-router-dom';
import { http, type RequestOptions } from '../../../http/index.ts';
import { FETCHED_AHEAD, queryClient, unlessJustFetched } from '../../../query/queryClient.ts';
import { routablePaths } from '../../../permissions/defaultRoute.ts';
import { usePermissions } from '../../../permissions/usePermissions.ts';
import { PageStatus } from '../../../routing/PageStatus.tsx';
import { useSession } from '../../../session/useSession.ts';
import { HOME_PATH } from '../../../../contract/home.ts';
import { QueryState } from '../../shared/QueryState.tsx';
import { ScreenHeading, SCREEN_TITLE_ID } from '../../shared/ScreenHeading.tsx';
import type { HomeAnswer } from '../../../../contract/home.ts';
import { HomeCardView } from './HomeCardView.tsx';
import './home.css';

const HOME_KEY = ['home'];
const fetchHome = (options: RequestOptions) =>
  http.get<{ data: HomeAnswer }>('home', options).then((body) => body.data);

/**
 * The cards start loading with the move to the home screen (after signing in, before the address changes), with no
 * loading overlay over the sign-in screen; a failure is for the screen to say.
 */
export function prefetch(): Promise<void> | undefined {
  if (queryClient.getQueryData(HOME_KEY) !== undefined) return undefined;
  return queryClient.prefetchQuery({
    queryKey: HOME_KEY,
    queryFn: ({ signal }) => fetchHome({ signal, ...FETCHED_AHEAD }),
  });
}

/** Where someone without a card goes instead: their landing path, else the default-route rule's first path (ROUTE-15). */
function ElsewhereThanHome() {
  const { landingPath } = useSession();
  const { permissions, loaded, failed } = usePermissions();
  if (landingPath && landingPath !== HOME_PATH) return <Navigate to={landingPath} replace />;
  if (!loaded && !failed) return <PageStatus />;
  return <Navigate to={routablePaths(permissions)[0] ?? '/403'} replace />;
}

/**
 * The screen a user lands on after signing in: the figures of the lists their role may open, each a link to the list
 * that shows it. The server decides the cards, so the request starts at once instead of after the permissions.
 */
export function HomeScreen() {
  const home = useQuery({
    queryKey: HOME_KEY,
    queryFn: ({ signal }) => fetchHome({ signal }),
    refetchOnMount: unlessJustFetched,
  });
  if (home.data?.cards.length === 0) return <ElsewhereThanHome />;
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>Home</ScreenHeading>
      <QueryState query={home} what="your home screen">
        <div className="home-grid">
          {home.data?.cards.map((card) => (
            <HomeCardView key={card.key} card={card} />
          ))}
        </div>
      </QueryState>
    </section>
  );
}
