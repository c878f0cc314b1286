import { useLocation, useSearchParams } from 'react-router-dom';
import { positiveInteger } from '../generic/list/useListState.ts';
import type { ScreenProps } from '../ScreenProps.ts';
import { SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import { WebhookDetail } from './webhooks/WebhookDetail.tsx';
import { WebhookList } from './webhooks/WebhookList.tsx';
import '../screens.css';
import './custom.css';
import './webhooks/webhooks.css';

/** The address parameter naming the webhook opened, so that Back, a reload and a shared link keep it. */
const OPENED = 'webhook';

/**
 * Webhooks: the other systems told when records change here. The list, and one webhook opened from it on the same
 * screen with its settings, actions and delivery log.
 */
export default function WebhooksScreen({ resource }: ScreenProps) {
  const { pathname } = useLocation();
  const [params] = useSearchParams();
  const opened = positiveInteger(params.get(OPENED));
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      {opened === undefined ? (
        <WebhookList resource={resource} detailPath={(id) => `${pathname}?${OPENED}=${id}`} />
      ) : (
        // Keyed by the webhook, so that opening another starts afresh (its log's filter and page).
        <WebhookDetail key={opened} resource={resource} id={opened} listPath={pathname} />
      )}
    </section>
  );
}
