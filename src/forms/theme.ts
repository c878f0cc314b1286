import type { RegistryWidgetsType, TemplatesType } from '@rjsf/utils';
import { BaseInputTemplate } from './templates/BaseInputTemplate.tsx';
import { FieldErrorTemplate } from './templates/FieldErrorTemplate.tsx';
import { FileWidget } from './widgets/FileWidget.tsx';
import { ImageWidget } from './widgets/ImageWidget.tsx';
import { MoneyWidget } from './widgets/MoneyWidget.tsx';
import { RelationSelectWidget } from './widgets/RelationSelectWidget.tsx';

/** The console's rjsf templates: accessible errors, inputs marked invalid while they show one. */
export const templates: Partial<TemplatesType> = { BaseInputTemplate, FieldErrorTemplate };

/** Widgets by the names uiSchema uses (`"ui:widget": "relation" | "money" | "image" | "file-picker"`). */
export const widgets: RegistryWidgetsType = { relation: RelationSelectWidget, money: MoneyWidget, image: ImageWidget, 'file-picker': FileWidget };
