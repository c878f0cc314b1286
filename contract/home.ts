/**
 * The home screen's cards (docs/api.md, "Home"): which a caller may see, decided by the server that answers them and
 * the console that offers the screen alike, so neither shows a card whose list the caller cannot open.
 */
import { MODULE } from './modules.ts';

export { HOME_PATH } from './homePath.ts';

export const HOME_CARD_KEYS = [
  'expiring_subscribers',
  'open_trials',
  'new_subscribers',
  'revenue',
  'upload_queue',
  'failed_uploads',
  'last_uploads',
  'recent_changes',
] as const;

export type HomeCardKey = (typeof HOME_CARD_KEYS)[number];

/** Whether the caller's role has `action` of `module`. */
type CanDo = (module: string, action: string) => boolean;

/** Each card needs the view of the list it links to. */
const CARD_MODULE: Record<HomeCardKey, string> = {
  expiring_subscribers: MODULE.subscribers,
  open_trials: MODULE.subscribers,
  new_subscribers: MODULE.subscribers,
  revenue: MODULE.adminReporting,
  upload_queue: MODULE.dataUploadLogs,
  failed_uploads: MODULE.dataUploadLogs,
  last_uploads: MODULE.dataUploadLogs,
  recent_changes: MODULE.auditLog,
};

/** The cards the caller may see, in the order the screen shows them. */
export function visibleHomeCards(can: CanDo): HomeCardKey[] {
  // Revenue is the whole business's money: a role held to its own subscribers (executive_access) does not see it,
  // even when it may open the admin report, whose figures its scope does not narrow either.
  const scoped = can(MODULE.subscribers, 'executive_access');
  return HOME_CARD_KEYS.filter((key) => can(CARD_MODULE[key], 'view') && !(key === 'revenue' && scoped));
}

/** `GET home` (docs/api.md, "Home"): one figure of a card. */
export interface HomeFigure {
  label: string;
  value: number;
  unit: 'count' | 'rupees';
  /** The list showing what is counted, filtered in its address; null when that list cannot be filtered so. */
  link: string | null;
  /** The same figure a month before, when the card compares. */
  previous: { label: string; value: number; link: string | null } | null;
}

export interface HomeItem {
  label: string;
  detail: string;
  at: string;
  link: string;
}

export interface HomeCard {
  key: HomeCardKey;
  title: string;
  link: string;
  figures: HomeFigure[];
  items: HomeItem[];
}

export interface HomeAnswer {
  cards: HomeCard[];
}
