// Summary of the axe-core audits the journeys record (one JSON line per audited screen).

export const BLOCKING_IMPACTS = ['serious', 'critical'];

/**
 * One line per distinct screen (the same screen audited by several journeys is merged), then the violations
 * that block, each with the elements it was found on. `blocking` counts serious and critical violations.
 */
export function summariseAudits(audits) {
  if (audits.length === 0) return { lines: ['no screen was audited'], blocking: 0 };
  const screens = new Map();
  for (const audit of audits) {
    const seen = screens.get(audit.screen) ?? {
      screen: audit.screen,
      paths: new Set(),
      journeys: new Set(),
      violations: new Map(),
    };
    seen.paths.add(audit.path);
    seen.journeys.add(audit.journey);
    for (const violation of audit.violations) {
      const known = seen.violations.get(violation.id) ?? { ...violation, targets: new Set() };
      violation.targets.forEach((target) => known.targets.add(target));
      seen.violations.set(violation.id, known);
    }
    screens.set(audit.screen, seen);
  }
  const lines = [];
  let blocking = 0;
  for (const seen of [...screens.values()].sort((a, b) => a.screen.localeCompare(b.screen))) {
    const violations = [...seen.violations.values()];
    const serious = violations.filter((violation) => BLOCKING_IMPACTS.includes(violation.impact));
    const other = violations.length - serious.length;
    blocking += serious.length;
    const verdict = serious.length === 0 ? 'PASS' : 'FAIL';
    lines.push(
      `${verdict} ${seen.screen} (${[...seen.paths].join(', ')}): ${serious.length} serious/critical, ${other} moderate/minor`,
    );
    for (const violation of serious) {
      lines.push(
        `     ${violation.impact} ${violation.id}: ${violation.help} -> ${[...violation.targets].slice(0, 5).join(' | ')}`,
      );
    }
  }
  lines.push(`${screens.size} screens audited; ${blocking} serious/critical findings (one per rule and screen)`);
  return { lines, blocking };
}
