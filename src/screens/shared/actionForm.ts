import type { ActionFormDescription, ResourceDescription } from '../../generated/types.ts';
import type { ActionName } from '../../generated/permissions.ts';

/** The manifest's form for an action of a resource (its schema, uiSchema and precompiled validator). */
export function actionForm(resource: ResourceDescription, action: ActionName): ActionFormDescription {
  const form = resource.forms[action];
  if (!form)
    throw new Error(`The manifest gives ${resource.module} no form for "${action}" (resource.forms.${action}).`);
  return form;
}
