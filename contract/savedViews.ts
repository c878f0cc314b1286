/**
 * The limits of saved views (docs/api.md, "Saved views and list settings"): the server holds writes to them and pages
 * the list of views by them, the console says them. Without them one user could make every user of a role download
 * all they saved each time a list opens (2,850 shared views of 10 KB made one role's `GET views/subscribers` 30.8 MB).
 */
export const SAVED_VIEW_LIMITS = {
  /** Private views one user may keep of one list. */
  privatePerUser: 50,
  /** Views of one list shared with one role, whoever shared them (a Super Admin sharing with a role counts there). */
  sharedPerRole: 50,
  /** A view's definition (its `query`) written as compact JSON, in bytes of UTF-8: 8 KB. */
  definitionBytes: 8 * 1024,
  /** A view's name, in characters. */
  nameLength: 100,
  /**
   * Views in a page of `GET views/<list>` unless the caller asks otherwise, and the most it may ask: a user's private
   * views and their role's shared ones together, so that at the limits one page holds every view a user may open.
   */
  pageSize: 100,
} as const;
