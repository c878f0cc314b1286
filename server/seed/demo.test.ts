import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { brokenRules } from '../modules/resources/historyEndpoints.ts';
import { RESOURCES, type EntityResource } from '../registry.ts';
import { quoted } from '../../codegen/sqlNames.ts';
import { startTestServer, testDatabases, type TestServer } from '../testing/testServer.ts';

const databases = await testDatabases();

/** The demo data is what a newcomer edits first: every record of it must save unchanged through the edit form. */
describe.each(databases)('demo data on $kind', ({ kind, skip }) => {
  let server: TestServer;
  beforeAll(async () => {
    if (!skip) server = await startTestServer(kind, {}, { demoSubscribers: 40 });
  });
  afterAll(async () => server?.close());

  it.skipIf(skip)('every demo record of an editable resource meets the rules its edit form holds it to', async () => {
    const editable = RESOURCES.filter(
      (resource): resource is EntityResource =>
        'entity' in resource && resource.entity !== null && resource.actions.includes('edit'),
    );
    const broken: string[] = [];
    let checked = 0;
    for (const resource of editable) {
      const rows = await server.db.query(`SELECT * FROM ${quoted(resource.entity.table)} ORDER BY id LIMIT 200`);
      for (const row of rows) {
        checked += 1;
        const errors = brokenRules(resource, row);
        if (errors) broken.push(`${resource.key} #${String(row.id)}: ${JSON.stringify(errors)}`);
      }
    }
    expect(checked).toBeGreaterThan(100);
    expect(broken).toEqual([]);
  });
});
