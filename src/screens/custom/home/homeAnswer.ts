import type { HomeCardKey } from '../../../../contract/home.ts';

/** `GET home` (docs/api.md, "Home"): the cards the signed-in user may see. */
export interface HomeFigure {
  label: string;
  value: number;
  unit: 'count' | 'rupees';
  /** The list showing what is counted, its filters in the address; null when that list offers no such filter. */
  link: string | null;
  previous: { label: string; value: number; link: string | null } | null;
}

export interface HomeItem {
  label: string;
  detail: string;
  at: string;
  link: string;
}

export interface HomeCard {
  key: HomeCardKey;
  title: string;
  link: string;
  figures: HomeFigure[];
  items: HomeItem[];
}

export interface HomeAnswer {
  cards: HomeCard[];
}
