/** The home screen's answer (docs/api.md, "Home"). */
import { HOME_CARD_KEYS } from '../../../contract/home.ts';
import { dataAnswer, wholeObject } from '../../http/answers.ts';
import { namedSchema } from '../../http/components.ts';

const link = {
  type: 'string',
  description: "A console path with the list's filters in its query: the list that shows this.",
} as const;
const nullableLink = {
  type: ['string', 'null'],
  description: `${link.description} Null when that list offers no such filter.`,
} as const;

const HOME_FIGURE = namedSchema(
  'HomeFigure',
  wholeObject(
    {
      label: { type: 'string', description: 'What is counted, in words that follow the figure.' },
      value: { type: 'number', description: 'A count, or rupees with at most 2 decimals.' },
      unit: { type: 'string', enum: ['count', 'rupees'] },
      link: nullableLink,
      previous: wholeObject(
        { label: { type: 'string' }, value: { type: 'number' }, link: nullableLink },
        {
          type: ['object', 'null'],
          description: 'The same figure for the month before, when the card compares months.',
          additionalProperties: false,
        },
      ),
    },
    { additionalProperties: false },
  ),
);

const HOME_ITEM = namedSchema(
  'HomeItem',
  wholeObject(
    {
      label: { type: 'string' },
      detail: { type: 'string' },
      at: { type: 'string', format: 'date-time' },
      link,
    },
    { additionalProperties: false },
  ),
);

const HOME_CARD = namedSchema(
  'HomeCard',
  wholeObject(
    {
      key: { type: 'string', enum: [...HOME_CARD_KEYS] },
      title: { type: 'string' },
      link,
      figures: { type: 'array', items: HOME_FIGURE },
      items: { type: 'array', items: HOME_ITEM, description: 'The uploads or changes a card lists, newest first.' },
    },
    { additionalProperties: false },
  ),
);

export const homeAnswer = dataAnswer(
  'The cards the caller may see: each only when their role may open the list it links to, its counts within their scope.',
  wholeObject({ cards: { type: 'array', items: HOME_CARD } }, { additionalProperties: false }),
);
