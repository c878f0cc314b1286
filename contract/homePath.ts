/**
 * The console path of the home screen, and a landing path (ROUTE-15) for whoever has a card on it. Apart from the
 * cards (contract/home.ts) so that the route table, part of the initial JS, carries the path and not the cards' rules.
 */
export const HOME_PATH = '/home';
