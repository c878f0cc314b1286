/** The ids of a list table's two control columns, beside the data columns named after their fields. */
export const SELECT = '_select';
export const ACTIONS = '_actions';
