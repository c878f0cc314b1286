import type { FastifySchema, RouteOptions } from 'fastify';
import type { JsonSchema } from '../../../contract/description.ts';
import { keywords } from '../../../validation/keywords.ts';
import type { Answer } from '../../http/answers.ts';
import { componentOf, type ComponentKind } from '../../http/components.ts';
import { describeAccess, type Access } from '../auth/access.ts';

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * The shared validation keywords (docs/spec/seed-spec.md section 5) are not OpenAPI's: the document carries them as
 * `x-` extensions.
 */
const SHARED_KEYWORDS = new Set(keywords.map((keyword) => keyword.keyword));

/** Keywords whose value maps names (of properties, definitions) to schemas: the names are data, never keywords. */
const NAMED_SCHEMAS = new Set(['properties', 'patternProperties', 'dependentSchemas', '$defs']);

const DESCRIPTION = `The API of the trade-data administration console: every route the server registers under its base path, read off the routes themselves (each states its access rule, request schemas and answers).

- Send \`Authorization: Bearer <access token>\` (from \`POST login\`) and \`APP-SOURCE\` (\`ADMIN\` for \`POST subscribers\`, \`ADMIN_APP\` otherwise). A state-changing request from a client holding the \`XSRF-TOKEN\` cookie sends it back as \`X-XSRF-TOKEN\`.
- Each operation's \`x-permission\` is the access rule the server enforces: \`public\`, \`development\` (no token, and only on a server not in production), \`signed-in\`, \`enrolling\` (signed in, also before enrolling the second factor a role requires), a module permission \`{ module, action }\`, or \`{ anyOf }\` / \`{ allOf }\` of them (an entry without \`action\` means any action of that module).
- Every record carries its \`version\`, sent as its \`ETag\`. A change of one record (\`PUT\`, \`PATCH .../status\`, \`DELETE\` of \`<api>/{id}\`, and a role's permission set) must send \`If-Match\` with the version it was made on: 428 without it, 412 when the record has changed since. Bulk changes (ids in the body) need none.
- Request bodies and query strings are validated with the schemas shown (the manifest's entity and form schemas, with its custom formats and keywords, the keywords as \`x-\` extensions); unknown fields and parameters are a 400. Errors answer \`{ message, errors? }\`.
- A trade-data file is sent to its signed \`upload_url\` (\`uploads/{id}/file\`) by the tus resumable upload protocol 1.0 (POST, HEAD, PATCH), whichever the storage (the data folder or an S3-compatible bucket), then \`POST uploads/{id}/complete\`.`;

/** The service's own API, for the teams that build on it; no public licence (an SPDX reference to that effect). */
const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };

type Published = Record<string, unknown>;

/**
 * The OpenAPI 3.1 document of the routes an app registered under `base`: each operation as its route declares it
 * (tags, summary, operationId, access rule, params, query, headers, body, answers). Objects the routes share by name
 * (server/http/components.ts) are listed once under `components`.
 */
export function openApiDocument(routes: readonly RouteOptions[], base: string): Published {
  const components = new Components();
  const paths: Record<string, Record<string, Published>> = {};
  for (const route of routes) {
    if (!route.url.startsWith(`${base}/`)) continue;
    const path = route.url.slice(base.length).replace(/:(\w+)/g, '{$1}');
    for (const method of [route.method].flat().filter((candidate) => METHODS.includes(candidate))) {
      const schema: FastifySchema = route.schema ?? {};
      (paths[path] ??= {})[method.toLowerCase()] = operation(path, schema, route.config?.access, components);
    }
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Trade-data admin API', version: '1.0.0', description: DESCRIPTION, license: LICENSE },
    servers: [{ url: base }],
    security: [{ bearer: [] }],
    paths,
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      responses: components.responses,
      schemas: components.schemas,
    },
  };
}

function operation(path: string, schema: FastifySchema, access: Access | undefined, components: Components): Published {
  const properties = (part: unknown) =>
    Object.entries(((part as JsonSchema | undefined)?.properties ?? {}) as Record<string, JsonSchema>);
  const required = (part: unknown) => new Set(((part as JsonSchema | undefined)?.required ?? []) as string[]);
  const pathNames = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]!);
  const declaredParams = Object.fromEntries(properties(schema.params));
  const queryRequired = required(schema.querystring);
  const headersRequired = required(schema.headers);
  const parameters = [
    // A path parameter the handler checks itself (a banner image's name) has no schema of its own: it is text.
    ...pathNames.map((name) => ({
      name,
      in: 'path',
      required: true,
      schema: components.schema(declaredParams[name] ?? { type: 'string' }),
    })),
    ...properties(schema.querystring).map(([name, property]) => ({
      name,
      in: 'query',
      ...(queryRequired.has(name) ? { required: true } : {}),
      // A former name still accepted (a page's `page`, `pageSize`): OpenAPI marks the parameter itself.
      ...((property as JsonSchema).deprecated === true ? { deprecated: true } : {}),
      schema: components.schema(property),
    })),
    ...properties(schema.headers).map(([name, property]) => ({
      name: headerName(name),
      in: 'header',
      ...(headersRequired.has(name) ? { required: true } : {}),
      schema: components.schema(property),
    })),
  ];
  const body = schema.body as JsonSchema | undefined;
  const answers = Object.entries((schema.response ?? {}) as Record<string, Answer>).sort(([a], [b]) =>
    a.localeCompare(b),
  );
  return {
    ...(schema.tags ? { tags: schema.tags } : {}),
    ...(schema.summary ? { summary: schema.summary } : {}),
    description: [
      access ? describeAccess(access) : 'Refused to everyone: the route states no access rule.',
      schema.description,
    ]
      .filter(Boolean)
      .join(' '),
    ...(schema.operationId ? { operationId: schema.operationId } : {}),
    ...(schema.security
      ? { security: schema.security }
      : access === 'public' || access === 'development'
        ? { security: [] }
        : {}),
    ...(access ? { 'x-permission': access } : {}),
    ...(parameters.length > 0 ? { parameters } : {}),
    ...(body
      ? {
          requestBody: {
            required: true,
            content: components.content(
              (body.content as Answer['content']) ?? { 'application/json': { schema: body } },
            ),
          },
        }
      : {}),
    responses: Object.fromEntries(answers.map(([status, answer]) => [status, components.answer(answer)])),
  };
}

/** `if-match` as HTTP spells it in documents: `If-Match`. */
function headerName(name: string): string {
  return name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
}

/** The document's `components`, filled as the operations refer to named objects, and the publishing of schemas. */
class Components {
  readonly schemas: Record<string, Published> = {};
  readonly responses: Record<string, Published> = {};
  private readonly owners = new Map<string, object>();

  /** A schema as published: shared keywords as `x-` extensions, named schemas as references. */
  schema(schema: JsonSchema): Published {
    return this.published('schemas', schema, () => this.schemaBody(schema));
  }

  answer(answer: Answer): Published {
    return this.published('responses', answer, () => this.answerBody(answer));
  }

  content(content: NonNullable<Answer['content']>): Published {
    return Object.fromEntries(
      Object.entries(content).map(([mediaType, { schema, encoding }]) => [
        mediaType,
        { schema: this.schema(schema), ...(encoding ? { encoding } : {}) },
      ]),
    );
  }

  private answerBody({ description, content, headers }: Answer): Published {
    return {
      description,
      ...(headers
        ? {
            headers: Object.fromEntries(
              Object.entries(headers).map(([name, header]) => [
                name,
                { description: header.description, schema: this.schema(header.schema) },
              ]),
            ),
          }
        : {}),
      ...(content ? { content: this.content(content) } : {}),
    };
  }

  private schemaBody(schema: JsonSchema): Published {
    const published: Published = {};
    for (const [keyword, value] of Object.entries(schema)) {
      if (SHARED_KEYWORDS.has(keyword)) published[`x-${keyword}`] = value;
      else if (NAMED_SCHEMAS.has(keyword))
        published[keyword] = Object.fromEntries(
          Object.entries(value as Record<string, JsonSchema>).map(([name, part]) => [name, this.schema(part)]),
        );
      else if (keyword === 'then' || keyword === 'else') published[keyword] = this.ruleBody(value as JsonSchema);
      else published[keyword] = this.value(value);
    }
    return published;
  }

  /**
   * A rule's `then` (or `else`) that requires fields names them under its `properties` too, with an empty schema (the
   * fields' own schemas are the entity's), as linters expect every required property to be defined where it is required.
   */
  private ruleBody(rule: JsonSchema): Published {
    const published = this.schemaBody(rule);
    const required = Array.isArray(rule.required) ? (rule.required as string[]) : [];
    const properties = (published.properties ?? {}) as Published;
    const undefinedNames = required.filter((name) => !(name in properties));
    return undefinedNames.length === 0
      ? published
      : {
          ...published,
          properties: { ...properties, ...Object.fromEntries(undefinedNames.map((name) => [name, {}])) },
        };
  }

  private value(value: unknown): unknown {
    if (Array.isArray(value)) return value.map((item) => this.value(item));
    if (value !== null && typeof value === 'object') return this.schema(value as JsonSchema);
    return value;
  }

  /** An object named as a `kind` component: a reference to it, listed once; any other object: `publish()`'s body. */
  private published(kind: ComponentKind, value: object, publish: () => Published): Published {
    const named = componentOf(value);
    if (named?.kind !== kind) return publish();
    this.register(kind, named.name, value, publish);
    return { $ref: `#/components/${kind}/${named.name}` };
  }

  /** Lists a named object once; two different objects under one name (each app builds its own) must publish alike. */
  private register(kind: ComponentKind, name: string, owner: object, publish: () => Published): void {
    const key = `${kind}/${name}`;
    const into = this[kind];
    const earlier = this.owners.get(key);
    if (earlier === owner) return;
    if (earlier === undefined) {
      this.owners.set(key, owner);
      into[name] = publish();
    } else if (JSON.stringify(publish()) !== JSON.stringify(into[name])) {
      throw new Error(`Two different objects are named ${name}.`);
    }
  }
}
