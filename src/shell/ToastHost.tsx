import { useEffect, type CSSProperties } from 'react';
import { cssTransition, ToastContainer } from 'react-toastify/unstyled';
import 'react-toastify/ReactToastify.css';
import { TOAST_EASING_MS, TOAST_POSITION, TOAST_TIMEOUT_MS } from '../config/constants.ts';
import { markToastHostMounted } from './plainAlert.ts';
import './ToastHost.css';

/** TOAST-02: toasts fade in and out; the CSS reads the easing from --toast-easing. */
const fade = cssTransition({ enter: 'toast-fade-in', exit: 'toast-fade-out', collapseDuration: TOAST_EASING_MS });

/** Where toasts appear (TOAST-01..03): top-right, 5 s, progress bar, pause on hover, close button. */
export function ToastHost() {
  useEffect(markToastHostMounted, []);
  return (
    <ToastContainer
      position={TOAST_POSITION}
      autoClose={TOAST_TIMEOUT_MS}
      hideProgressBar={false}
      pauseOnHover
      closeOnClick={false}
      closeButton
      newestOnTop
      transition={fade}
      aria-label="Messages"
      style={{ '--toast-easing': `${TOAST_EASING_MS}ms` } as CSSProperties}
    />
  );
}
