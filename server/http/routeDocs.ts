/**
 * How a resource's routes name themselves in the OpenAPI document: `about` gives a route's operation id, summary and
 * description under the resource's label as its tag; `singular` is the resource's singular as an operation id takes
 * it (`trade partner` -> `TradePartner`).
 */
export function resourceRouteDocs(resource: { label: string; singular: string }) {
  return {
    singular: resource.singular.replace(/(?:^|\s+)(\w)/g, (_match, letter: string) => letter.toUpperCase()),
    about: (operationId: string, summary: string, description?: string) => ({
      tags: [resource.label],
      operationId,
      summary,
      ...(description ? { description } : {}),
    }),
  };
}
