import { MODULE_CONTRACTS } from '../../contract/modules.ts';
import type { ContractField, ModuleContract } from '../../contract/moduleContract.ts';
import { manifestError, pointerOf, type ManifestError } from '../errors.ts';
import type { LoadedArea } from '../load.ts';

/**
 * Each module a contract names (`MODULE_CONTRACTS`) holds the fields the server reads by name, each of its type and
 * format; a field people give is required (so that no sale reads a missing price as 0), one the server keeps is
 * `readOnly`, and an `enum` holds every value the server writes or tells apart. A manifest without the module has
 * nothing to hold; a module the server keeps in a table of its own (`holds: null`) is held only when it has an entity.
 */
export function moduleContractErrors(areas: readonly LoadedArea[]): ManifestError[] {
  const errors: ManifestError[] = [];
  for (const { file, document: area } of areas) {
    area.resources.forEach((resource, index) => {
      const contract = MODULE_CONTRACTS.find((each) => each.module === resource.key);
      if (!contract) return;
      const at = (...rest: (string | number)[]) => pointerOf('resources', index, ...rest);
      const refuse = (pointer: string, message: string) =>
        errors.push(manifestError('ModuleContractViolation', file, pointer, message));
      const schema = resource.entity?.schema;
      if (!schema) {
        if (contract.holds) refuse(at(), `${resource.key} holds ${contract.holds}, so it needs an entity`);
        return;
      }
      const properties = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      const required = new Set((schema.required ?? []) as string[]);
      for (const field of Object.values(contract.fields)) {
        const property = Object.hasOwn(properties, field.field) ? properties[field.field] : undefined;
        const problems = fieldProblems(field, property, required.has(field.field));
        const why = `${field.readBy} (contract/modules.ts, ${contract.name})`;
        for (const [where, problem] of problems)
          refuse(at('entity', 'schema', ...where(field.field)), problemText(contract, field, problem, why));
      }
    });
  }
  return errors;
}

type Problem = 'missing' | 'type' | 'format' | 'required' | 'readOnly' | 'values';
type Where = (name: string) => string[];

function fieldProblems(
  field: ContractField,
  property: Record<string, unknown> | undefined,
  isRequired: boolean,
): Array<[Where, Problem]> {
  const own =
    (...rest: string[]) =>
    (name: string) => ['properties', name, ...rest];
  if (!property) return [[() => ['properties'], 'missing']];
  const problems: Array<[Where, Problem]> = [];
  if (property.type !== field.type) problems.push([own('type'), 'type']);
  if (property.format !== field.format)
    problems.push([property.format === undefined ? own() : own('format'), 'format']);
  if (field.givenBy === 'people' && !field.mayBeEmpty && !isRequired) problems.push([() => ['required'], 'required']);
  if (field.givenBy === 'server' && property.readOnly !== true) problems.push([own(), 'readOnly']);
  const values = Array.isArray(property.enum) ? (property.enum as unknown[]) : null;
  if (field.values && values && field.values.some((value) => !values.includes(value)))
    problems.push([own('enum'), 'values']);
  return problems;
}

function problemText(contract: ModuleContract, field: ContractField, problem: Problem, why: string): string {
  const { field: name, type, format } = field;
  const wanted = `${type === 'integer' ? 'an' : 'a'} ${type}${format ? ` of format "${format}"` : ''}`;
  switch (problem) {
    case 'missing':
      return `${contract.record} needs "${name}", ${wanted}${field.givenBy === 'server' ? ' kept by the server (readOnly)' : ''}: ${why}`;
    case 'type':
    case 'format':
      return `"${name}" must be ${wanted}: ${why}`;
    case 'required':
      return `"${name}" must be required, never empty: ${why}`;
    case 'readOnly':
      return `"${name}" is kept by the server, so it must be readOnly: ${why}`;
    case 'values':
      return `"${name}" must allow every value the server uses (${(field.values ?? []).join(', ')}): ${why}`;
  }
}
