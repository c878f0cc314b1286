/** The header's icons, each one path on a 24 x 24 grid. */
const STROKE_ICON_PATHS = {
  menu: 'M4 6h16M4 12h16M4 18h16',
  back: 'M15 5l-7 7 7 7',
  bell: 'M6 16V11a6 6 0 1 1 12 0v5l1.5 2h-15L6 16zM10 20a2 2 0 0 0 4 0',
  check: 'M5 12l5 5 9-10',
} as const;

/**
 * An icon drawn as one stroke of the text's colour with round ends and joins, decorative: the control holding it is
 * named by its label.
 */
export function StrokeIcon({ icon, width = 2 }: { icon: keyof typeof STROKE_ICON_PATHS; width?: number }) {
  return (
    <svg viewBox="0 0 24 24" aria-hidden="true" focusable="false">
      <path
        d={STROKE_ICON_PATHS[icon]}
        fill="none"
        stroke="currentColor"
        strokeWidth={width}
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
