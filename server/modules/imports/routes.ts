import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { csvAnswer, errorAnswers } from '../../http/answers.ts';
import { csvLine, sendCsvFile } from '../../http/csv.ts';
import { validationError } from '../../http/errors.ts';
import { sendWithProgress } from '../../http/progressStream.ts';
import { idParams } from '../../http/requestSchemas.ts';
import { resourceRouteDocs } from '../../http/routeDocs.ts';
import { ENTITY_RESOURCES } from '../../registry.ts';
import { actorOf } from '../audit/record.ts';
import { currentUser, permission } from '../auth/access.ts';
import { ResourceContext } from '../resources/resourceContext.ts';
import { ResponseCache } from '../resources/responseCache.ts';
import { fileOf, isPlainFileName } from '../uploads/fileChecks.ts';
import { importableFields, matchKey, suggestedMapping } from './importFields.ts';
import { fileTooLarge, receiveImportFile } from './fileBody.ts';
import { IMPORT_MAX_BYTES } from './importLimits.ts';
import { parseImportFile } from './parseFile.ts';
import { applyImport, dryRun, mappedColumns, rejectedRows, type Mapping } from './runImport.ts';
import { applyAnswer, dryRunAnswer, importFileBody, mappingBody, uploadedAnswer } from './schemas.ts';
import { loadImport, rememberMapping, storeImport } from './store.ts';

/** Import from a file for each resource whose manifest offers `import` (docs/api.md, "Import"). */
export async function importRoutes(app: FastifyInstance): Promise<void> {
  app.addContentTypeParser('multipart/form-data', (_request: FastifyRequest, payload: IncomingMessage) =>
    receiveImportFile(payload),
  );
  const responses = new ResponseCache();
  for (const resource of ENTITY_RESOURCES.filter((candidate) => candidate.actions.includes('import'))) {
    registerImport(app, new ResourceContext(app, resource, responses));
  }
}

type WithMapping = FastifyRequest<{ Params: { id: number }; Body: { mapping: Mapping } }>;

function registerImport(app: FastifyInstance, resourceContext: ResourceContext): void {
  const { resource, db } = resourceContext;
  const base = `/${resource.api}/import`;
  const config = { access: permission(resource.key, 'import') };
  const plural = resource.typeName;
  const several = resource.label.toLowerCase();
  const { about } = resourceRouteDocs(resource);
  const fields = importableFields(resource);
  const stored = async (request: WithMapping | FastifyRequest<{ Params: { id: number } }>) =>
    loadImport(db, resource.key, currentUser(request).id, request.params.id);

  app.get(`${base}/template`, {
    config,
    schema: {
      ...about(
        `get${plural}ImportTemplate`,
        `A CSV template for importing ${several}`,
        'The heading row: the title of each field a file may fill.',
      ),
      response: { 200: csvAnswer('CSV: the heading row.'), ...errorAnswers(401, 403) },
    },
    handler: async (_request, reply) =>
      sendCsvFile(
        reply,
        `${resource.api.replace(/\//g, '-')}-import-template.csv`,
        csvLine(fields.map((field) => field.title)),
      ),
  });

  app.post(base, {
    config: { ...config, audit: { none: 'keeps the file for its dry run; no record changes until it is applied' } },
    schema: {
      ...about(
        `upload${plural}Import`,
        `Upload a CSV or XLSX file of ${several} to import`,
        'Parsed and kept for its dry run and apply; answers its headings and the fields they match by name or title.',
      ),
      body: importFileBody,
      response: { 201: uploadedAnswer, ...errorAnswers(400, 401, 403, 413, 415) },
    },
    handler: async (request, reply) => {
      const file = fileOf(request);
      if (!isPlainFileName(file.filename)) throw validationError({ file: 'The file name must not contain a path.' });
      if (file.data.length > IMPORT_MAX_BYTES) throw fileTooLarge();
      const parsed = await parseImportFile(file.data, file.filename);
      const id = await storeImport(db, resource.key, currentUser(request).id, file.filename, parsed);
      reply.code(201);
      return {
        data: {
          id,
          file_name: file.filename,
          headings: parsed.headings,
          rows: parsed.rowCount,
          mapping: suggestedMapping(parsed.headings, fields),
          fields: fields.map((field) => ({
            name: field.name,
            title: field.title,
            required: field.required,
            key: matchKey(resource).includes(field.name),
          })),
        },
        message: `${parsed.rowCount} row(s) read from ${file.filename}.`,
      };
    },
  });

  app.post(`${base}/:id/dry-run`, {
    config: { ...config, audit: { action: 'import_dry_run' } },
    schema: {
      ...about(
        `dryRun${plural}Import`,
        `Dry run of a ${resource.singular.toLowerCase()} import`,
        'What applying the file would do to each row; changes nothing.',
      ),
      params: idParams,
      body: mappingBody,
      response: { 200: dryRunAnswer, ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request: WithMapping, reply) => {
      const file = await stored(request);
      const columns = mappedColumns(resourceContext, file, request.body.mapping);
      await rememberMapping(db, file.id, request.body.mapping);
      const caller = { user: currentUser(request), actor: actorOf(request) };
      return sendWithProgress(reply, (progress) => dryRun(db, resourceContext, file, columns, caller, progress));
    },
  });

  app.post(`${base}/:id/apply`, {
    config: { ...config, audit: { action: 'import' } },
    schema: {
      ...about(
        `apply${plural}Import`,
        `Apply a ${resource.singular.toLowerCase()} import`,
        'Creates and updates what the dry run showed, in one transaction; refused rows are left out.',
      ),
      params: idParams,
      body: mappingBody,
      response: { 200: applyAnswer, ...errorAnswers(400, 401, 403, 404, 409) },
    },
    handler: async (request: WithMapping, reply) => {
      const file = await stored(request);
      const columns = mappedColumns(resourceContext, file, request.body.mapping);
      return sendWithProgress(reply, (progress) =>
        resourceContext.write(request, (context) => applyImport(context, resourceContext, file, columns, progress)),
      );
    },
  });

  app.get(`${base}/:id/rejected`, {
    config,
    schema: {
      ...about(
        `get${plural}ImportRejected`,
        `The refused rows of a ${resource.singular.toLowerCase()} import`,
        "CSV: the file's columns and a Reason column, as of the last dry run's mapping.",
      ),
      params: idParams,
      response: { 200: csvAnswer('CSV, streamed as an attachment.'), ...errorAnswers(400, 401, 403, 404) },
    },
    handler: async (request: FastifyRequest<{ Params: { id: number } }>, reply) => {
      const file = await stored(request);
      const columns = mappedColumns(resourceContext, file, file.mapping ?? suggestedMapping(file.headings, fields));
      const user = currentUser(request);
      async function* lines(): AsyncGenerator<string> {
        yield csvLine([...file.headings, 'Reason']);
        for await (const row of rejectedRows(db, resourceContext, file, columns, user))
          yield csvLine([...row.cells, row.reason]);
      }
      return sendCsvFile(
        reply,
        `rejected-${file.fileName.replace(/\.[^.]*$/, '').replace(/[^\w.-]/g, '_')}.csv`,
        lines(),
      );
    },
  });
}
