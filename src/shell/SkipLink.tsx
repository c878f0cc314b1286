/** The first focusable element of every page: jumps past the header and sidebar. */
export function SkipLink() {
  return (
    <a className="skip-link" href="#main">
      Skip to main content
    </a>
  );
}
