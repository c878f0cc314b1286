import { idParams, writeSchema } from '../../contract/resources.ts';
import type { ProjectModel } from '../../contract/description.ts';
import { GENERATED_NOTICE } from './header.ts';
import { fixedOperations, fixedSchemas } from './openapiFixed.ts';
import { ERROR_RESPONSES, json, operation, ref, type OperationSpec } from './openapiOperation.ts';
import { SHARED_ANSWERS, entitySchema, isEntityResource, relatingResources, resourceAnswers, resourceOperations } from './openapiResources.ts';

const DESCRIPTION = `The API of the trade-data administration console, generated from the module manifest: every route the reference server registers under /api/v1.

- Send \`Authorization: Bearer <access token>\` (from \`POST login\`) and \`APP-SOURCE\` (\`ADMIN\` for \`POST subscribers\`, \`ADMIN_APP\` otherwise). A state-changing request from a client holding the \`XSRF-TOKEN\` cookie sends it back as \`X-XSRF-TOKEN\`.
- Each operation's \`x-permission\` is the access rule the server enforces: \`public\`, \`signed-in\`, a module permission \`{ module, action }\`, or \`{ anyOf }\` / \`{ allOf }\` of them (an entry without \`action\` means any action of that module).
- \`x-storage\` marks an operation registered only with that upload storage: \`folder\` (the default data folder) or \`bucket\` (\`S3_BUCKET\` set).
- Every record carries its \`version\`, sent as its \`ETag\`. A change of one record (\`PUT\`, \`PATCH .../status\`, \`DELETE\` of \`<api>/{id}\`, and a role's permission set) must send \`If-Match\` with the version it was made on: 428 without it, 412 when the record has changed since. Bulk changes (ids in the body) need none.
- Request bodies and query strings are validated with the schemas shown (the manifest's entity and form schemas, with its custom formats and keywords); unknown fields and parameters are a 400. Errors answer \`{ message, errors? }\`.`;

/** The API contract (OpenAPI 3.1) of every endpoint, generic and fixed, from the description; the server serves it. */
export function emitOpenApi(model: ProjectModel): string {
  const resources = model.areas.flatMap((area) => area.resources);
  const schemas: Record<string, unknown> = {
    Error: {
      type: 'object',
      required: ['message'],
      properties: { message: { type: 'string' }, errors: { type: 'object', additionalProperties: { type: 'string' }, description: 'Field name → message.' } },
    },
    ListMeta: {
      type: 'object',
      required: ['total', 'page', 'page_size'],
      properties: { total: { type: 'integer' }, page: { type: 'integer' }, page_size: { type: 'integer' } },
    },
    ...fixedSchemas(model),
  };
  const answers: Record<string, unknown> = {
    ...Object.fromEntries(
      Object.entries(ERROR_RESPONSES).map(([status, { name, description }]) => [
        name,
        { description, ...(status === '429' ? { headers: { 'Retry-After': { schema: { type: 'integer' }, description: 'Seconds to wait.' } } } : {}), content: json(ref('Error')) },
      ]),
    ),
    ...SHARED_ANSWERS,
  };
  const byKey = new Map(resources.map((resource) => [resource.key, resource]));
  for (const resource of resources.filter(isEntityResource)) {
    Object.assign(answers, resourceAnswers(resource));
    schemas[resource.typeName] = entitySchema(resource, byKey);
    schemas[`${resource.typeName}Create`] = writeSchema(resource.entity.createSchema);
    schemas[`${resource.typeName}Update`] = writeSchema(resource.entity.updateSchema);
  }

  const paths: Record<string, Record<string, unknown>> = {};
  const add = (spec: OperationSpec) => {
    const operations = (paths[spec.path] ??= {});
    // A fixed endpoint takes the place of the generic one at its method and path (the upload flow's POST uploads).
    if (!(spec.method in operations)) operations[spec.method] = operation(spec);
  };
  fixedOperations(model).forEach(add);
  const relating = relatingResources(resources);
  for (const resource of resources.filter(isEntityResource)) resourceOperations(resource, relating.get(resource.key) ?? []).forEach(add);

  const document = {
    openapi: '3.1.0',
    info: { title: 'Trade-data admin API', version: '1.0.0', description: DESCRIPTION },
    servers: [{ url: '/api/v1' }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      parameters: {
        id: { name: 'id', in: 'path', required: true, schema: idParams.properties.id },
        ifMatch: {
          name: 'If-Match',
          in: 'header',
          required: true,
          description: 'The `ETag` of the record as read (its `version`, quoted: `"3"`); several may be listed, `*` matches any version.',
          schema: { type: 'string' },
        },
      },
      headers: { ETag: { description: 'The record\'s version as a strong entity tag: `"3"`.', schema: { type: 'string' } } },
      responses: answers,
      schemas,
    },
    'x-generated': GENERATED_NOTICE,
  };
  return `${JSON.stringify(document, null, 2)}\n`;
}
