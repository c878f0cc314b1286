import { appendFileSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';
import { AXE_REPORT } from './env.ts';

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

export interface AuditResult {
  journey: string;
  screen: string;
  path: string;
  violations: { id: string; impact: string | null; help: string; targets: string[] }[];
}

/**
 * Runs axe-core (WCAG 2.x A and AA rules and best practices) on the page as it is now and records the result
 * for the run's accessibility summary (tests/e2e/run.mjs fails the run on any serious or critical violation).
 * Auditing never fails the journey itself, so a journey's verdict says only whether the journey works.
 */
export async function audit(page: Page, journey: string, screen: string): Promise<AuditResult> {
  // Injected through the DevTools protocol, so the console's content security policy (script-src 'self')
  // does not stop it and no script tag is added to the page.
  // Let fades and dropdown animations end first, or axe measures half-transparent text (toast progress bars,
  // which run for the whole toast time-out, are not waited for).
  await page.evaluate(`Promise.race([
    Promise.all(document.getAnimations().filter((a) => (a.effect?.getComputedTiming().endTime ?? 0) <= 1000).map((a) => a.finished.catch(() => null))),
    new Promise((resolve) => setTimeout(resolve, 1500)),
  ])`);
  const loaded = await page.evaluate('typeof window.axe === "object"');
  if (!loaded) await page.evaluate(axeSource);
  // A toast whose 5 s time-out ends during the audit would start fading out and be measured half-transparent:
  // hold every toast as it is (timer paused, fully shown) while axe runs, then let it go on.
  const hold = await page.addStyleTag({
    content:
      '.Toastify__progress-bar { animation-play-state: paused !important; } .toast-fade-out { animation: none !important; opacity: 1 !important; }',
  });
  const violations = (await page.evaluate(
    `window.axe.run(document, { resultTypes: ['violations'] }).then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) })))`,
  )) as AxeViolation[];
  await hold.evaluate((style) => (style as Element).remove());
  const result: AuditResult = {
    journey,
    screen,
    path: new URL(page.url()).pathname,
    violations: violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.map(String).join(' ')),
    })),
  };
  if (AXE_REPORT) appendFileSync(AXE_REPORT, `${JSON.stringify(result)}\n`);
  return result;
}
