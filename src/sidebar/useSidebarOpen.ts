import { useEffect, useState } from 'react';
import { SIDEBAR_STORAGE_KEY } from '../config/constants.ts';

/** SIDEBAR-05: open or closed, remembered for the browser session and restored on load (open by default). */
export function useSidebarOpen(): [boolean, (open: boolean) => void] {
  const [open, setOpen] = useState(() => sessionStorage.getItem(SIDEBAR_STORAGE_KEY) !== 'false');
  useEffect(() => {
    sessionStorage.setItem(SIDEBAR_STORAGE_KEY, String(open));
  }, [open]);
  return [open, setOpen];
}
