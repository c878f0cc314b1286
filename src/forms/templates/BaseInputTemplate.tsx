import { getDefaultRegistry } from '@rjsf/core';
import type { BaseInputTemplateProps } from '@rjsf/utils';
import { nationalMobile } from '../../../validation/formats.ts';

const DefaultBaseInput = getDefaultRegistry().templates.BaseInputTemplate;

/**
 * rjsf's input, marked invalid for screen readers while it shows an error. A value stored in one form (`normalise`,
 * formUiSchema) is put in it: capitals as typed (phones offer their capitals keyboard), a mobile number's ten digits
 * when the field is left, as the server stores them.
 */
export function BaseInputTemplate(props: BaseInputTemplateProps) {
  const invalid = (props.rawErrors?.length ?? 0) > 0;
  const { onChange, onBlur, id } = props;
  const normalised =
    props.options.normalise === 'upper'
      ? {
          autoCapitalize: 'characters',
          onChange: (value: unknown) => onChange(typeof value === 'string' ? value.toUpperCase() : value),
        }
      : props.options.normalise === 'mobile'
        ? {
            inputMode: 'tel' as const,
            onBlur: (blurred: string, value: unknown) => {
              if (typeof value === 'string' && value !== nationalMobile(value)) onChange(nationalMobile(value));
              onBlur(blurred ?? id, value);
            },
          }
        : {};
  return <DefaultBaseInput {...props} aria-invalid={invalid || undefined} {...normalised} />;
}
