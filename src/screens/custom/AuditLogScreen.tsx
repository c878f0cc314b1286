import type { ScreenProps } from '../ScreenProps.ts';
import { ScreenHeading, SCREEN_TITLE_ID } from '../shared/ScreenHeading.tsx';
import '../screens.css';

/** The audit log: every write, filtered by user, module, action, record and date range. */
export default function AuditLogScreen(_props: ScreenProps) {
  return (
    <section className="screen" aria-labelledby={SCREEN_TITLE_ID}>
      <ScreenHeading>Audit Log</ScreenHeading>
    </section>
  );
}
