import { Component, type ReactNode } from 'react';
import { useLocation, type Location } from 'react-router-dom';

export interface RouteErrorBoundaryProps {
  children: ReactNode;
}

/**
 * What a route shows when it throws, e.g. a chunk that failed to load after a new release, until the address
 * changes: the next page gets its own chance. React reports the error to the console itself.
 */
export function RouteErrorBoundary({ children }: RouteErrorBoundaryProps) {
  return <LocationErrorBoundary location={useLocation()}>{children}</LocationErrorBoundary>;
}

interface LocationErrorBoundaryProps extends RouteErrorBoundaryProps {
  location: Location;
}

interface LocationErrorBoundaryState {
  failed: boolean;
  location: Location;
}

class LocationErrorBoundary extends Component<LocationErrorBoundaryProps, LocationErrorBoundaryState> {
  override state: LocationErrorBoundaryState = { failed: false, location: this.props.location };

  static getDerivedStateFromError(): Partial<LocationErrorBoundaryState> {
    return { failed: true };
  }

  static getDerivedStateFromProps(
    props: LocationErrorBoundaryProps,
    state: LocationErrorBoundaryState,
  ): Partial<LocationErrorBoundaryState> | null {
    return props.location === state.location ? null : { failed: false, location: props.location };
  }

  override render() {
    if (!this.state.failed) return this.props.children;
    return (
      <main id="main" className="error-page" role="alert">
        <h1>Something went wrong</h1>
        <p>This page could not be shown. Reloading usually helps after the console was updated.</p>
        <button type="button" className="button button--primary" onClick={() => window.location.reload()}>
          Reload
        </button>
      </main>
    );
  }
}
