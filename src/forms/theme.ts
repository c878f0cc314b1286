import type { RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import { BaseInputTemplate } from './templates/BaseInputTemplate.tsx';
import { FieldErrorTemplate } from './templates/FieldErrorTemplate.tsx';
import { FileWidget } from './widgets/FileWidget.tsx';
import { ImageWidget } from './widgets/ImageWidget.tsx';
import { MoneyWidget } from './widgets/MoneyWidget.tsx';
import { MonthWidget } from './widgets/MonthWidget.tsx';
import { RelationSelectWidget } from './widgets/RelationSelectWidget.tsx';

/** The console's rjsf templates: accessible errors, inputs marked invalid while they show one. */
export const templates: Partial<TemplatesType> = { BaseInputTemplate, FieldErrorTemplate };

/** Widgets by the names uiSchema uses (`"ui:widget": "relation" | "money" | "month" | "image" | "file-picker"`). */
export const widgets: RegistryWidgetsType = {
  relation: RelationSelectWidget,
  money: MoneyWidget,
  month: MonthWidget,
  image: ImageWidget,
  'file-picker': FileWidget,
};
