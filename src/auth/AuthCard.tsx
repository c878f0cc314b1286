import type { ReactNode } from 'react';
import './AuthCard.css';

export interface AuthCardProps {
  title: string;
  intro?: ReactNode;
  children: ReactNode;
}

/** The card every auth screen sits in. */
export function AuthCard({ title, intro, children }: AuthCardProps) {
  return (
    <section className="auth-card" aria-labelledby="auth-title">
      <h1 id="auth-title">{title}</h1>
      {intro && <p className="auth-intro">{intro}</p>}
      {children}
    </section>
  );
}
