import type { SentFileRecord } from './resumableFile.ts';

/** How far back the speed is measured: long enough to be steady, short enough to follow a change of line. */
const SPEED_WINDOW_MS = 5000;

export interface ProgressSample {
  at: number;
  sent: number;
}

export interface SendingState {
  sent: number;
  total: number;
  paused: boolean;
  /** Why sending stopped by itself (the connection), when it did. */
  stopped: string | null;
  samples: ProgressSample[];
}

/** The state after a progress event: the samples of the last few seconds kept for the speed. */
export function progressed(state: SendingState, sent: number, total: number, at = Date.now()): SendingState {
  const samples = [
    ...state.samples.filter((sample) => sample.at >= at - SPEED_WINDOW_MS && sample.sent <= sent),
    { at, sent },
  ];
  return { ...state, sent, total, stopped: null, samples };
}

function bytesPerSecond(samples: ProgressSample[]): number | null {
  const first = samples[0];
  const last = samples[samples.length - 1];
  if (!first || !last || last.at - first.at < 500) return null;
  return ((last.sent - first.sent) * 1000) / (last.at - first.at);
}

const UNITS = ['B', 'KB', 'MB', 'GB'];
function size(bytes: number): string {
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < UNITS.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value.toFixed(unit === 0 ? 0 : 1)} ${UNITS[unit]}`;
}

function duration(seconds: number): string {
  if (seconds < 60) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 3600) return `${Math.round(seconds / 60)} min`;
  return `${Math.floor(seconds / 3600)} h ${Math.round((seconds % 3600) / 60)} min`;
}

export interface SendingProgressProps {
  state: SendingState;
  onPause(): void;
  onResume(): void;
}

/** The file on its way: how much, how fast, how long still; pause and resume; what a break or a reload does. */
export function SendingProgress({ state, onPause, onResume }: SendingProgressProps) {
  const speed = state.paused || state.stopped ? null : bytesPerSecond(state.samples);
  const fraction = state.total > 0 ? state.sent / state.total : 0;
  const facts = [`${Math.floor(fraction * 100)}% sent (${size(state.sent)} of ${size(state.total)})`];
  if (state.paused) facts.push('paused');
  else if (speed) facts.push(`${size(speed)}/s`, `about ${duration((state.total - state.sent) / speed)} left`);
  return (
    <div role="status" className="upload-progress">
      <progress className="progress-bar" aria-label="Upload progress" max={1} value={fraction} />
      <span>{facts.join(' · ')}</span>
      {state.stopped && <p className="field-error">Sending stopped: {state.stopped}. Resume to send the rest.</p>}
      <div className="form-actions">
        {state.paused || state.stopped ? (
          <button type="button" className="button" onClick={onResume}>
            Resume
          </button>
        ) : (
          <button type="button" className="button" onClick={onPause}>
            Pause
          </button>
        )}
      </div>
      <p className="field-help">
        If the connection drops, sending resumes by itself from where it stopped. If this page is closed or reloaded,
        open it again and pick the same file: it resumes from there.
      </p>
    </div>
  );
}

export interface UnfinishedSendingProps {
  fileName: string;
  record: SentFileRecord;
  onResume(): void;
  onDiscard(): void;
}

/** A file picked again that this browser was sending when the page was left: resume it, or start anew. */
export function UnfinishedSending({ fileName, record, onResume, onDiscard }: UnfinishedSendingProps) {
  return (
    <div role="status" className="upload-progress">
      <p>
        {fileName} was partly sent for upload {record.uploadId}, started {new Date(record.startedAt).toLocaleString()}.
        Resume sends only the rest of it; the country, direction and period of that upload are kept.
      </p>
      <div className="form-actions">
        <button type="button" className="button" onClick={onResume}>
          Resume upload {record.uploadId}
        </button>
        <button type="button" className="button" onClick={onDiscard}>
          Start a new upload instead
        </button>
      </div>
    </div>
  );
}
