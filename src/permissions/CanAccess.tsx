import type { ReactNode } from 'react';
import type { ActionName, ModuleKey } from '../generated/permissions.ts';
import { useCanAccess } from './useCanAccess.ts';

export interface CanAccessProps {
  module?: ModuleKey;
  action?: ActionName;
  children: ReactNode;
  /** Shown while permissions load. */
  loading?: ReactNode;
  /** Shown when access is denied. */
  denied?: ReactNode;
}

/** Renders its children only when the user may use the module (and action). */
export function CanAccess({ module, action, children, loading = null, denied = null }: CanAccessProps) {
  const access = useCanAccess(module, action);
  if (access.loading) return <>{loading}</>;
  return <>{access.allowed ? children : denied}</>;
}
