import { join } from 'node:path';
import type { ProjectModel } from '../../contract/description.ts';
import { dataShape, shapeDifferences } from '../../contract/dataShape.ts';
import { MANIFEST_MIGRATIONS, readManifestMigrations } from '../../contract/manifestMigrations.ts';
import { noDecisions } from './decisions.ts';
import { draftMigration } from './draftMigration.ts';

/**
 * What keeps the committed migrations from producing the manifest's data shape, each line said with the command that
 * fixes it; none when they match. `check` fails on any, so a change the data cannot follow never reaches a deployment.
 */
export async function unmigratedChanges(model: ProjectModel, projectRoot: string): Promise<string[]> {
  const { migrations, problems } = await readManifestMigrations(join(projectRoot, MANIFEST_MIGRATIONS));
  if (problems.length > 0) return problems;
  const last = migrations.at(-1);
  if (!last)
    return [
      `${MANIFEST_MIGRATIONS} has no migration: write the first with \`npm run make-migration -- --name initial\`.`,
    ];
  const differences = shapeDifferences(last.shape, dataShape(model.areas));
  if (differences.length === 0) return [];
  const draft = await draftMigration(model, migrations, { decisions: noDecisions(), ask: null });
  return [
    `the manifest's data shape is not the one the last migration (${last.name}) leaves:`,
    ...differences.map((difference) => `  - ${difference}`),
    'Write the migration with `npm run make-migration -- --name "<what changed>"`, review it and commit it with the manifest.',
    ...(draft.kind === 'refused' ? ['make-migration will need to be told:', ...draft.refusals] : []),
  ];
}
