import type { ActionName } from '../../../generated/permissions.ts';

/** What each action lets a role do, said once in the matrix's legend and in its column headings' tooltips. */
export const ACTION_MEANINGS: Readonly<Record<ActionName, string>> = {
  view: "See the module in the sidebar and open its list. Every other action of a module needs it, so it is ticked with them. On an area's row: show the area in the sidebar even when none of its modules is granted.",
  add: 'Create new records.',
  edit: 'Change existing records.',
  delete: 'Move records to the trash.',
  ACTIVE_INACTIVE: 'Switch records between active and inactive.',
  download: 'Export the list as a file.',
  view_detail: "Open a record's own page (its details and history), beyond its row in the list.",
  verify: 'Mark records as verified.',
  refresh: 'Recompute the data on demand.',
  SUBSCRIBER_DETAIL: "Open a subscriber's page.",
  ADD_SUBSCRIPTION: 'Give a subscriber a plan.',
  ADD_TOP_UP: 'Add points to a subscriber.',
  executive_access: 'Limit the module to the subscribers assigned to the user.',
  import: 'Add records from a CSV or XLSX file.',
};
