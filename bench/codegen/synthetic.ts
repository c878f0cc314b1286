import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Writes a manifest of `resources` resources, ten per area, each with a realistic entity. */
export async function writeSyntheticManifest(dir: string, resources: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const perArea = 10;
  for (let areaIndex = 0; areaIndex * perArea < resources; areaIndex++) {
    const count = Math.min(perArea, resources - areaIndex * perArea);
    const area = {
      key: `AREA_${areaIndex}_MANAGEMENT`,
      label: `Area ${areaIndex}`,
      path: `area-${areaIndex}`,
      order: areaIndex + 1,
      guard: 'authenticated',
      sidebar: { link: `/area-${areaIndex}` },
      resources: Array.from({ length: count }, (_, i) => {
        const n = areaIndex * perArea + i;
        return {
          key: `RESOURCE_${n}`,
          label: `Resources ${n}`,
          path: `resources-${n}`,
          actions: ['view', 'add', 'edit', 'delete', 'ACTIVE_INACTIVE', 'download', 'view_detail'],
          entity: {
            schema: {
              type: 'object',
              additionalProperties: false,
              required: ['name', 'email'],
              properties: {
                name: { title: 'Name', type: 'string', maxLength: 120, noWhiteSpace: true },
                email: { title: 'Email', type: 'string', format: 'email', maxLength: 254 },
                mobile: { title: 'Mobile', type: 'string', format: 'mobile', normalise: 'mobile' },
                pincode: { title: 'Pincode', type: 'string', format: 'pincode' },
                quantity: { title: 'Quantity', type: 'integer', minimum: 0, maximum: 1000000 },
                status: { title: 'Status', type: 'string', enum: ['draft', 'live', 'archived'] },
                valid_from: { title: 'Valid from', type: 'string', format: 'date' },
              },
            },
            unique: ['email'],
          },
          list: {
            columns: ['name', 'email', 'status', 'is_active'],
            search: ['name', 'email'],
            filters: ['status', 'is_active'],
            sort: { field: 'name' },
            pageSize: 20,
          },
          uiSchema: { 'ui:order': ['name', 'email', '*'] },
        };
      }),
    };
    await writeFile(join(dir, `area-${areaIndex}.json`), JSON.stringify(area, null, 2));
  }
}
