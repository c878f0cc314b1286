// The resource endpoints' schemas are shared with the OpenAPI emitter, so they live in contract/.
export { bulkStatusBody, exportQuerySchema, idParams, idsBody, isDateField, listQuerySchema, listableFields, optionsQuery, statusBody, writeSchema } from '../../contract/resources.ts';
