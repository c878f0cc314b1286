import { lazy, Suspense, useId, useState } from 'react';
import type { ResourceDescription } from '../../generated/types.ts';
import './HistorySection.css';

/** The panel's code loads when the section is first opened, so detail screens stay as small as they were. */
const HistoryPanel = lazy(() => import('./HistoryPanel.tsx'));

export interface HistorySectionProps {
  resource: ResourceDescription;
  recordId: string;
  /** The record's version as shown: a restore applies to it (If-Match). */
  version: number;
}

/** A record's History, collapsed until asked for; only for resources whose manifest keeps history. */
export function HistorySection({ resource, recordId, version }: HistorySectionProps) {
  const [open, setOpen] = useState(false);
  const id = useId();
  if (!resource.entity?.history) return null;
  return (
    <section className="panel history" aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className="history__title">
        <button
          type="button"
          className="text-button history__toggle"
          aria-expanded={open}
          aria-controls={`${id}-panel`}
          onClick={() => setOpen(!open)}
        >
          History
        </button>
      </h2>
      {open && (
        <div id={`${id}-panel`}>
          <Suspense
            fallback={
              <p role="status" className="screen-state">
                Loading the history…
              </p>
            }
          >
            <HistoryPanel resource={resource} recordId={recordId} version={version} />
          </Suspense>
        </div>
      )}
    </section>
  );
}
