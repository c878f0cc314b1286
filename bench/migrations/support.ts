import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type pg from 'pg';

type Schema = Record<string, unknown>;
interface VoucherResource {
  key: string;
  entity: { schema: { properties: Record<string, Schema> } };
  list: { columns: string[]; search: string[] };
  uiSchema: Record<string, unknown> & { 'ui:order': string[] };
}

/** Edits the VOUCHER resource of a manifest copy. */
export async function editVouchers(manifestDir: string, edit: (vouchers: VoucherResource) => void): Promise<void> {
  const file = join(manifestDir, 'voucher-management.json');
  const area = JSON.parse(await readFile(file, 'utf8')) as { resources: VoucherResource[] };
  edit(area.resources.find((resource) => resource.key === 'VOUCHER')!);
  await writeFile(file, JSON.stringify(area, null, 2));
}

/** A field renamed wherever the resource names it: its schema (in place), the form's order and widget, the list. */
export function renameField(vouchers: VoucherResource, from: string, to: string): void {
  const rename = (name: string) => (name === from ? to : name);
  vouchers.entity.schema.properties = Object.fromEntries(
    Object.entries(vouchers.entity.schema.properties).map(([name, schema]) => [rename(name), schema]),
  );
  vouchers.uiSchema = Object.fromEntries(
    Object.entries(vouchers.uiSchema).map(([name, value]) => [rename(name), value]),
  ) as VoucherResource['uiSchema'];
  vouchers.uiSchema['ui:order'] = vouchers.uiSchema['ui:order'].map(rename);
  vouchers.list.columns = vouchers.list.columns.map(rename);
  vouchers.list.search = vouchers.list.search.map(rename);
}

export interface ProbeReport {
  probes: number;
  /** How long, in all, a read of the table could not get its lock within the probe's wait. */
  readBlockedMs: number;
  /** As reads, for a row lock as a writer takes it. */
  writeBlockedMs: number;
  longestBlockedMs: number;
}

const PROBE_EVERY_MS = 50;

/**
 * Probes the vouchers table until stopped: every 50 ms a read (`SELECT`) and a row lock (`SELECT ... FOR SHARE`, what a
 * writer's lock conflicts like), each giving up after the client's lock_timeout. A probe that gives up counts the time
 * since the one before as blocked.
 */
export function probeTable(client: pg.Client): { stop(): Promise<ProbeReport> } {
  const report: ProbeReport = { probes: 0, readBlockedMs: 0, writeBlockedMs: 0, longestBlockedMs: 0 };
  let running = true;
  let blockedSince: number | null = null;
  const attempt = async (sql: string): Promise<boolean> => {
    try {
      await client.query('BEGIN');
      await client.query(sql);
      return true;
    } catch {
      return false;
    } finally {
      await client.query('ROLLBACK').catch(() => undefined);
    }
  };
  const loop = (async () => {
    let last = performance.now();
    while (running) {
      const read = await attempt('SELECT id FROM vouchers WHERE id = 1');
      const write = await attempt('SELECT id FROM vouchers WHERE id = 1 FOR SHARE');
      const now = performance.now();
      report.probes += 1;
      if (!read) report.readBlockedMs += now - last;
      if (!write) report.writeBlockedMs += now - last;
      if (!read || !write) blockedSince ??= last;
      else if (blockedSince !== null) {
        report.longestBlockedMs = Math.max(report.longestBlockedMs, now - blockedSince);
        blockedSince = null;
      }
      last = now;
      await new Promise((resolve) => setTimeout(resolve, PROBE_EVERY_MS));
    }
    if (blockedSince !== null)
      report.longestBlockedMs = Math.max(report.longestBlockedMs, performance.now() - blockedSince);
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return report;
    },
  };
}
