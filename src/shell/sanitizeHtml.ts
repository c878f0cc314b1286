import DOMPurify from 'dompurify';

// An image in server HTML with no text of its own is decoration beside the message's words: screen readers skip it.
DOMPurify.addHook('afterSanitizeAttributes', (node) => {
  if (node.tagName === 'IMG' && !node.hasAttribute('alt')) node.setAttribute('alt', '');
});

/**
 * Server HTML (notifications, toast messages) made safe to render (NOTIF-10, TOAST-04): no script, no event
 * handler, no javascript: URL survives.
 */
export function sanitizeHtml(html: string): string {
  return DOMPurify.sanitize(html, {
    USE_PROFILES: { html: true },
    FORBID_TAGS: ['style', 'form', 'input', 'button', 'textarea', 'select'],
  });
}
