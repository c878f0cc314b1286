/** A field special code reads from a module: its name, and the type (and format) the manifest must give it. */
export interface ContractField {
  field: string;
  type: 'string' | 'integer' | 'number' | 'boolean';
  format?: 'money' | 'period' | 'date';
  /**
   * Who gives its value: `people` (required, never empty: a sale must not read a missing price as 0) or `server` (the
   * server keeps it from its own tables, so the manifest marks it `readOnly` and the form never asks for it).
   */
  givenBy: 'people' | 'server';
  /** A field people give that may be left empty (only what reads it copes with its absence). */
  mayBeEmpty?: true;
  /** The values the server writes into it or tells apart, every one of which its `enum` must hold. */
  values?: readonly string[];
  /** What reads it, for the codegen's refusal. */
  readBy: string;
}

/** A module's fields as its contract names them, with the words the codegen's refusal uses. */
export interface ModuleContract {
  module: string;
  /** The constant's name in this file, which the refusal names. */
  name: string;
  /** One record of the module, in words ("a plan"). */
  record: string;
  /** Why the module needs an entity at all; null when the server keeps it in a table of its own without one. */
  holds: string | null;
  fields: Record<string, ContractField>;
}
