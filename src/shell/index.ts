export { toastSuccess, toastError, type ToastOptions } from './toasts.tsx';
export { loader } from './loader.ts';
export { sanitizeHtml } from './sanitizeHtml.ts';
export { ErrorPage, type ErrorPageProps } from './ErrorPage.tsx';
