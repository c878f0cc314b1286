import type { MailMessage } from '../mail/outbox.ts';
import { escapeHtml } from '../../http/html.ts';

/** What an e-mailed link is for. */
export type LinkPurpose = 'reset_password' | 'verify_email';

/** How a link's e-mail is worded: a verification link to an account without a password invites its owner to choose one. */
export type LinkWording = LinkPurpose | 'invite';

/** The product as its e-mails name it (the sign-in screen says the same). */
export const PRODUCT_NAME = 'Trade Data administration console';

interface LinkMessageFacts {
  to: string;
  firstName: string | null;
  link: string;
  lifetimeSeconds: number;
  expiresAt: Date;
}

interface Wording {
  subject: string;
  /** Paragraphs before the link, the link's label, and paragraphs after it. */
  before: (facts: LinkMessageFacts) => string[];
  action: string;
  after: (lifetime: string) => string[];
}

const WORDING: Record<LinkWording, Wording> = {
  reset_password: {
    subject: `Reset your password for the ${PRODUCT_NAME}`,
    before: ({ to }) => [`Someone asked to reset the password of your ${PRODUCT_NAME} account (${to}).`],
    action: 'Choose a new password',
    after: (lifetime) => [
      `The link works once and expires in ${lifetime}.`,
      'If you did not ask for it, ignore this e-mail: your password stays as it is.',
    ],
  },
  verify_email: {
    subject: `Verify your e-mail address for the ${PRODUCT_NAME}`,
    before: ({ to }) => [
      `An administrator created a ${PRODUCT_NAME} account for you (${to}). Verify your e-mail address to sign in.`,
    ],
    action: 'Verify my address',
    after: (lifetime) => [
      `The link works once and expires in ${lifetime}. After that, sign in and ask for a new link.`,
      'If you did not expect this account, ignore this e-mail.',
    ],
  },
  invite: {
    subject: `You are invited to the ${PRODUCT_NAME}`,
    before: ({ to }) => [
      `An administrator created a ${PRODUCT_NAME} account for you (${to}). Choose your password to sign in.`,
    ],
    action: 'Choose my password',
    after: (lifetime) => [
      `The link works once and expires in ${lifetime}. After that, ask for a new one with "Forgot password" on the sign-in screen.`,
      'If you did not expect this account, ignore this e-mail.',
    ],
  },
};

const HTML_START = '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5; color: #1f2937">';

/** A notice e-mail of plain paragraphs (no link to follow), in plain text and in HTML with each paragraph escaped. */
export function noticeMessage(to: string, subject: string, paragraphs: readonly string[]): MailMessage {
  return {
    to,
    subject,
    text: paragraphs.join('\n\n'),
    html: [HTML_START, ...paragraphs.map((line) => `<p>${escapeHtml(line)}</p>`), '</body></html>'].join('\n'),
    expiresAt: null,
  };
}

/** A link e-mail in plain text and HTML: what it is for, the link, and when the link stops working. */
export function linkMessage(kind: LinkWording, facts: LinkMessageFacts): MailMessage {
  const wording = WORDING[kind];
  const greeting = facts.firstName ? `Hello ${facts.firstName},` : 'Hello,';
  const before = wording.before(facts);
  const after = wording.after(lifetimeText(facts.lifetimeSeconds));
  const text = [greeting, ...before, `${wording.action}: ${facts.link}`, ...after, `— ${PRODUCT_NAME}`].join('\n\n');
  const paragraph = (line: string) => `<p>${escapeHtml(line)}</p>`;
  const html = [
    HTML_START,
    paragraph(greeting),
    ...before.map(paragraph),
    `<p><a href="${escapeHtml(facts.link)}" style="display: inline-block; padding: 10px 16px; background: #1d4ed8; color: #ffffff; text-decoration: none; border-radius: 6px">${escapeHtml(wording.action)}</a></p>`,
    `<p style="font-size: 13px">Or open this address: ${escapeHtml(facts.link)}</p>`,
    ...after.map(paragraph),
    paragraph(`— ${PRODUCT_NAME}`),
    '</body></html>',
  ].join('\n');
  return { to: facts.to, subject: wording.subject, text, html, expiresAt: facts.expiresAt };
}

/** 1800 -> "30 minutes", 604800 -> "7 days": the largest whole unit. */
export function lifetimeText(seconds: number): string {
  const units: Array<[number, string]> = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
    [1, 'second'],
  ];
  const [size, name] = units.find(([unit]) => seconds % unit === 0 && seconds >= unit) ?? [1, 'second'];
  const count = Math.round(seconds / size);
  return `${count} ${name}${count === 1 ? '' : 's'}`;
}
