import { useQuery } from '@tanstack/react-query';
import type { ModuleKey } from '../../generated/permissions.ts';
import { AREAS } from '../../generated/routes.ts';
import type { FieldDescription, ResourceDescription } from '../../generated/types.ts';

/**
 * Another resource's description, for a screen that shows that resource's records (an executive's subscribers, the
 * trade records of uploads): read from its area's chunk, which is loaded once, when first asked for.
 */
export function useResourceDescription(module: ModuleKey): ResourceDescription | undefined {
  const area = AREAS.find((candidate) => candidate.routes.some((route) => route.module === module));
  const description = useQuery({
    queryKey: ['description', module],
    queryFn: async () => (await area!.load()).resources.find((resource) => resource.module === module) ?? null,
    enabled: area !== undefined,
    staleTime: Infinity,
  });
  return description.data ?? undefined;
}

/** One field of another resource, by name (undefined while its area loads). */
export function useFieldDescription(module: ModuleKey, name: string): FieldDescription | undefined {
  return useResourceDescription(module)?.entity?.fields.find((field) => field.name === name);
}
