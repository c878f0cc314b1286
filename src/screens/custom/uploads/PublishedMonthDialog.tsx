import { Dialog } from '../../shared/Dialog.tsx';

/** What the server asked before accepting a file: the same bytes were uploaded before, and what the month already has published. */
export interface MonthQuestion {
  /** The earlier upload of the same bytes, said; null when there is none. */
  duplicate: string | null;
  /** The published uploads of the same country, trade direction and period, said; null when there are none. */
  published: string | null;
}

/** The uploader's answer: add the file's rows to what is there, or replace what is published with them. */
export type MonthAnswer = 'add' | 'replace';

/** The body that completes an upload with the uploader's answer. */
export function completionBody(question: MonthQuestion, answer: MonthAnswer): Record<string, boolean> {
  if (answer === 'replace') return { replace_published: true };
  return question.duplicate ? { confirm_duplicate: true } : { add_to_published: true };
}

interface PublishedMonthDialogProps {
  question: MonthQuestion;
  fileName: string;
  onAnswer: (answer: MonthAnswer) => void;
  onCancel: () => void;
}

/**
 * Asks what a file is for when its month already has records (or the same file was uploaded before): replace the
 * published records, or add to them, or cancel the upload. The cancel, which imports nothing, is the default (the
 * focus starts on it); the answers that import twice or take published records out are marked as risky.
 */
export function PublishedMonthDialog({ question, fileName, onAnswer, onCancel }: PublishedMonthDialogProps) {
  return (
    <Dialog
      title={question.duplicate ? 'Import this file again?' : 'This month is already published'}
      onClose={onCancel}
    >
      <div className="dialog__body">
        {question.duplicate && <p>{question.duplicate}</p>}
        {question.published && <p>{question.published}</p>}
        {question.published && (
          <p>
            Replace takes the published records out when those of {fileName} are published: until then readers see the
            old ones, after it the new ones, never both.
          </p>
        )}
        <p>
          {question.duplicate
            ? `Importing it again adds the rows of ${fileName} a second time.`
            : `Adding keeps the published records and adds the rows of ${fileName} to them.`}
        </p>
        <p>Cancelling the upload imports nothing of {fileName}.</p>
      </div>
      <div className="dialog__actions">
        {/* The safe answer is the default: it has the focus, so Enter imports nothing. */}
        <button type="button" className="button button--primary" data-autofocus onClick={onCancel}>
          Cancel the upload
        </button>
        <button
          type="button"
          className={question.duplicate ? 'button button--danger' : 'button'}
          onClick={() => onAnswer('add')}
        >
          {question.duplicate ? 'Import again' : 'Add to them'}
        </button>
        {question.published && (
          <button type="button" className="button button--danger" onClick={() => onAnswer('replace')}>
            Replace them
          </button>
        )}
      </div>
    </Dialog>
  );
}
