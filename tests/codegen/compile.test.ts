import { cp, mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { buildModel, emitAll } from '../../codegen/index.ts';
import { fixturesDir, projectRoot, tempDir } from './helpers.ts';

// Type-checks what the generator writes, together with code that uses it the way the console does.
const usage = `
import { MODULES, MODULE_ACTIONS, type ActionName, type ModuleKey } from './src/generated/permissions.ts';
import { AREAS } from './src/generated/routes.ts';
import { SIDEBAR } from './src/generated/sidebar.ts';
import type { Users, Countries } from './src/generated/entities.ts';
import masters from './src/generated/areas/masters.json';
import { readAreaDescription } from './contract/writtenDescription.ts';
import { AREA_DESCRIPTIONS } from './server/generated/areas/index.ts';
import type { AreaManifest } from './codegen/generated/manifest.ts';

const module: ModuleKey = 'USERS';
// @ts-expect-error a module key outside the manifest is not a ModuleKey
const unknownModule: ModuleKey = 'NOPE';
const action: ActionName = 'ADD_TOP_UP';
// @ts-expect-error an action outside the vocabulary is not an ActionName
const unknownAction: ActionName = 'approve';
const user: Users = { id: 1, email: 'a@b.in', mobile: '9876543210', country_id: 1, is_active: true, created_at: '', updated_at: '', version: 1 };
// @ts-expect-error write-only fields are not part of the returned entity
const leaked: Users['password'] = 'x';
const country: Countries = { id: 1, name: 'India', iso2: 'IN', is_active: true, created_at: '', updated_at: '', version: 1 };
const RESOURCES = readAreaDescription(masters).resources;
const area: AreaManifest = { key: 'X', label: 'X', path: 'x', order: 1, guard: 'none', resources: [] };
async function firstResource() {
  const loaded = await AREAS[0]!.load();
  const validate = loaded.resources[0]!.entity!.validateCreate;
  return validate({}) ? null : validate.errors;
}
export const used = [MODULES, MODULE_ACTIONS, SIDEBAR, RESOURCES, AREA_DESCRIPTIONS, module, unknownModule, action, unknownAction, user, leaked, country, area, firstResource];
`;

describe('generated TypeScript', () => {
  it('compiles under strict settings and types the manifest precisely', async () => {
    const built = await buildModel(join(fixturesDir, 'relations', 'manifest'));
    const files = await emitAll(built.model!);
    const dir = await tempDir('compile');
    for (const [path, text] of files) {
      await mkdir(dirname(join(dir, path)), { recursive: true });
      await writeFile(join(dir, path), text);
    }
    // What the generated files import beside themselves: the shared rules, the description's types, the area chunks' join.
    await cp(join(projectRoot, 'validation'), join(dir, 'validation'), { recursive: true });
    await cp(join(projectRoot, 'contract'), join(dir, 'contract'), { recursive: true });
    for (const file of ['areaModule.ts', 'areaTypes.ts'])
      await cp(join(projectRoot, 'src', 'routing', file), join(dir, 'src', 'routing', file));
    await writeFile(join(dir, 'usage.ts'), usage);
    const program = ts.createProgram([join(dir, 'usage.ts')], {
      strict: true,
      noEmit: true,
      target: ts.ScriptTarget.ES2022,
      module: ts.ModuleKind.ESNext,
      moduleResolution: ts.ModuleResolutionKind.Bundler,
      allowImportingTsExtensions: true,
      resolveJsonModule: true,
      skipLibCheck: true,
      types: [],
      typeRoots: [join(projectRoot, 'node_modules', '@types')],
      baseUrl: projectRoot,
      paths: { '*': [join(projectRoot, 'node_modules', '*')] },
    });
    const diagnostics = ts
      .getPreEmitDiagnostics(program)
      .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n') + (d.file ? ` (${d.file.fileName})` : ''));
    expect(diagnostics).toEqual([]);
  });
});
