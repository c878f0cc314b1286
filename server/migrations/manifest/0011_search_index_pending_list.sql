-- manifest/0011_search_index_pending_list: written by `admin-codegen make-migration --empty`; the data shape stays 0010_webhooks_module's.
-- Its steps are written by hand below, each as `-- step: <what it does>` and its SQL.
-- Review it before committing it: a step may be edited (a backfill, a conversion) until it is applied somewhere.
-- The server applies pending migrations at start in one transaction, and will not start once an applied one changed.

-- step: search indexes take new entries into a pending list of at most 64 kB, merged in bulk (as tableSql.ts makes them)
ALTER INDEX "available_countries_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "banners_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "categories_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "companies_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "company_employee_contacts_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "countries_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "data_fields_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "data_types_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "data_uploads_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "employees_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "executive_profiles_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "features_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "hs_chapters_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "hs_codes_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "icici_subscribers_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "lookup_types_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "lookups_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "maintenance_notices_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "offers_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "plans_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "related_products_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "roles_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "subscriber_contacts_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "subscribers_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "users_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
ALTER INDEX "vouchers_search_idx" SET (fastupdate = on, gin_pending_list_limit = 64);
