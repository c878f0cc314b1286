import { errorsAt, pointerOf, type ManifestError } from '../errors.ts';
import type { Resource } from '../generated/manifest.ts';
import { entityChecks, schemaErrors, type ResourceUnderCheck } from '../validate.ts';
import { ROUTE_SUFFIX } from '../vocabulary.ts';

/** A resource's own rules: its screens and forms, and those of its entity (or what a resource without one may not have). */
export function resourceChecks(check: ResourceUnderCheck): ManifestError[] {
  const { file, index, resource, ajv } = check;
  const at = (...rest: (string | number)[]) => pointerOf('resources', index, ...rest);
  const { errors, add } = errorsAt(file, at);
  const offers = (action: string) => resource.actions.includes(action as Resource['actions'][number]);
  const entity = resource.entity;

  for (const [action, screen] of Object.entries(resource.screens ?? {})) {
    if (!offers(action))
      add(
        'UnknownAction',
        ['screens', action],
        `screen "${screen}" is given for action "${action}", which the resource does not offer`,
      );
    else if (ROUTE_SUFFIX[action as keyof typeof ROUTE_SUFFIX] === undefined)
      add('UnknownAction', ['screens', action], `action "${action}" opens no screen, so it cannot have one`);
  }

  for (const [action, form] of Object.entries(resource.forms ?? {})) {
    if (!offers(action))
      add(
        'UnknownAction',
        ['forms', action],
        `a form is given for action "${action}", which the resource does not offer`,
      );
    errors.push(...schemaErrors(file, ajv, form.schema, 'form', (...rest) => at('forms', action, 'schema', ...rest)));
  }

  if (!entity) {
    // Without an entity there is no generic screen: view needs a custom one; other actions are permissions only.
    if (resource.actions.includes('view') && !resource.screens?.view)
      add(
        'MissingScreen',
        ['actions'],
        'action "view" needs a custom screen: the resource has no entity for the generic list',
      );
    if (resource.list) add('UnknownField', ['list'], 'a list needs an entity to list');
    if (resource.describe)
      add('UnknownField', ['describe'], 'describe names fields of a found record, so it needs an entity');
    for (const field of Object.keys(resource.uiSchema ?? {}).filter((key) => !key.startsWith('ui:')))
      add('UnknownField', ['uiSchema', field], `uiSchema names "${field}", but the resource has no entity`);
    return errors;
  }

  errors.push(...entityChecks(check));
  return errors;
}
