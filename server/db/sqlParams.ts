/** Positional parameters for one statement: `add(value)` gives its placeholder. */
export class SqlParams {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/** A condition on the base table (alias `t` unless another is given) that limits which records a caller may see. */
export type Scope = (params: SqlParams, alias?: string) => string;
