import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import type { HomeCardKey } from '../../../../contract/home.ts';
import { formatDate } from '../../shared/formatValue.ts';
import type { HomeCard, HomeFigure } from '../../../../contract/home.ts';
import { changeInWords, formatFigure } from './formatFigure.ts';

/** What a card that lists things says when it has none, and the name of its link to the whole list. */
const LISTED: Partial<Record<HomeCardKey, { none: string; all: string }>> = {
  last_uploads: { none: 'No uploads yet.', all: 'All data uploads' },
  recent_changes: { none: 'No changes recorded yet.', all: 'The whole audit log' },
};

/** A link when the figure has a list to open, else the words alone. */
function MaybeLink({ to, children }: { to: string | null; children: ReactNode }) {
  return to === null ? <span>{children}</span> : <Link to={to}>{children}</Link>;
}

function Figure({ figure }: { figure: HomeFigure }) {
  const { previous } = figure;
  return (
    <div className="home-figure">
      <MaybeLink to={figure.link}>
        <span className="home-figure__value">{formatFigure(figure.value, figure.unit)}</span>{' '}
        <span className="home-figure__label">{figure.label}</span>
      </MaybeLink>
      {previous && (
        <>
          <p className="home-figure__change">{changeInWords(figure.value, previous.value, figure.unit)}</p>
          <p className="home-figure__previous">
            <MaybeLink to={previous.link}>
              {formatFigure(previous.value, figure.unit)} {previous.label}
            </MaybeLink>
          </p>
        </>
      )}
    </div>
  );
}

/** One card of the home screen: its figures, each linking to the list it counts, or the things it lists. */
export function HomeCardView({ card }: { card: HomeCard }) {
  const titleId = `home-card-${card.key}`;
  const listed = LISTED[card.key];
  return (
    <article className="home-card" aria-labelledby={titleId}>
      <h2 id={titleId}>{card.title}</h2>
      {card.figures.map((figure) => (
        <Figure key={figure.label} figure={figure} />
      ))}
      {listed && (
        <>
          {card.items.length === 0 ? (
            <p className="home-card__none">{listed.none}</p>
          ) : (
            <ul className="home-items">
              {card.items.map((item) => (
                <li key={`${item.link}|${item.at}`}>
                  <Link to={item.link}>{item.label}</Link>
                  <span className="home-items__detail">
                    {item.detail} · <time dateTime={item.at}>{formatDate(item.at, true)}</time>
                  </span>
                </li>
              ))}
            </ul>
          )}
          <Link className="home-card__all" to={card.link}>
            {listed.all}
          </Link>
        </>
      )}
    </article>
  );
}
