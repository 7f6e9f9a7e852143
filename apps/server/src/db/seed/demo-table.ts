/**
 * The demo's own record of what it has added (made at start by seedDemo, not by a migration): a
 * restore makes it too before loading a backup that has it.
 */
export const DEMO_SEED_DDL = 'create table if not exists demo_seed (area text primary key, seeded_on timestamptz not null default now())';
