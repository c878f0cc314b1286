import { getDefaultRegistry } from '@rjsf/core';
import type { BaseInputTemplateProps } from '@rjsf/utils';

const DefaultBaseInput = getDefaultRegistry().templates.BaseInputTemplate;

/** rjsf's input, marked invalid for screen readers while it shows an error. */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  return <DefaultBaseInput {...props} aria-invalid={invalid || undefined} />;
}
