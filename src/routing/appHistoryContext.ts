import { createContext, use } from 'react';
import type { AppHistory } from './appHistory.ts';

/** The history the console's router runs on, for what needs more than React Router's hooks (navigation guards). */
export const AppHistoryContext = createContext<AppHistory | null>(null);

export function useAppHistory(): AppHistory {
  const history = use(AppHistoryContext);
  if (!history) throw new Error('useAppHistory is used outside an AppRouter.');
  return history;
}
