import type { FastifyInstance } from 'fastify';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { TCulture, TFieldType, TSelectOption } from '@crm/contract';
import type { Db, Tx } from '../../db/client.ts';
import type { Actor } from '../../lib/audit.ts';
import type { SessionUser } from '../../plugins/auth.ts';

/** What a field definition may use while answering: the transaction and the caller's language. */
export type FieldContext = {
  db: Db | Tx;
  culture: TCulture;
  t: (key: string, params?: Record<string, string | number>) => string;
  timeZone: string;
  /** Who asks (null for anonymous; field routes are for staff). */
  user: SessionUser | null;
};

type Row = Record<string, unknown>;

/** One field that the single-field editor may change. */
export type PatchableField = {
  type: TFieldType;
  /** The table property (Drizzle key) holding the value; default: the field name. Not for flag-enum. */
  column?: string;
  /** flag-enum: the boolean table properties edited as one checkbox group (option value = property). */
  flags?: readonly string[];
  /** Texts and numbers: limits (text: characters). */
  max?: number;
  min?: number;
  /** number: whole numbers only. */
  integer?: boolean;
  /** number: the value is a multiple of this (e.g. a map circle's radius in steps of 10 m). */
  step?: number;
  /** An empty value is refused (validation.required). */
  required?: boolean;
  /** select, enum, flag-enum, multi-select: the choices; a value outside them is refused. */
  options?: (ctx: FieldContext, row: Row) => TSelectOption[] | Promise<TSelectOption[]>;
  /** location (and other searched choices): whether a chosen id exists. */
  exists?: (ctx: FieldContext, value: number) => Promise<boolean>;
  /** The dto property that shows the field (default: the field name). */
  dtoFieldName?: string;
  /** text: a rule of its own (a tax number's check digit), given the stored row; answers the error's text key, or null. */
  check?: (value: string, row: Record<string, unknown>) => string | null;
};

/** A kind of record whose fields can be patched one at a time (PATCH /api/{name}/patch/{id}). */
export type PatchableEntity = {
  /** The route segment, e.g. "account" (matched without regard to case). */
  name: string;
  /** The entity name written to the action log, e.g. "Account". */
  logEntity: string;
  /** The table: must have the properties id, version, modifiedOn and modifiedBy. */
  table: PgTable;
  columns: { id: AnyPgColumn; version: AnyPgColumn };
  fields: Record<string, PatchableField>;
  /** The record as answered after a patch (the updated fields, version and stamps). */
  toDto: (row: Row, ctx: FieldContext) => Promise<Record<string, unknown>>;
  /** Rules across fields (e.g. budget from ≤ up to); throw fieldError to refuse. */
  validate?: (row: Row, field: string, value: unknown, ctx: FieldContext) => void | Promise<void>;
  /**
   * After a change is written, in its transaction (e.g. an object's publish request starts the
   * publishing). The record is read again afterwards when this is given.
   */
  afterChange?: (app: FastifyInstance, tx: Tx, change: { id: number; before: Row; after: Row; field: string; actor: Actor }) => Promise<void>;
  /** Whether the caller may read and change this field of this record; throw accessDenied() to refuse. */
  authorize?: (row: Row, field: string, ctx: FieldContext) => void | Promise<void>;
};

const ENTITIES = new Map<string, PatchableEntity>();

/** Registers an entity; its routes are added when the fields module starts. */
export function registerPatchableEntity(entity: PatchableEntity) {
  ENTITIES.set(entity.name.toLowerCase(), entity);
}

export const getPatchableEntity = (name: string) => ENTITIES.get(name.toLowerCase());
export const listPatchableEntities = () => [...ENTITIES.values()];
