import DOMPurify from 'dompurify';

/**
 * Server HTML (notifications, toast messages) made safe to render (NOTIF-10, TOAST-04): no script, no event
 * handler, no javascript: URL survives.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'] });
}
