import { OBJECT_LISTS, OBJECT_RELATIONS, OBJECT_SUBTYPES, type TObjectListName, type TObjectSelectLists, type TSelectOption } from '@crm/contract';

type T = (key: string) => string;

/** The values of a select list (subtypes: all of them, each with its type as parent). */
export function listValues(list: TObjectListName): readonly number[] {
  if (list === 'objectSubTypes') return OBJECT_SUBTYPES.map((s) => s.value);
  return OBJECT_LISTS[list];
}

/** The options of one select list in the reader's language. */
export function listOptions(t: T, list: TObjectListName): TSelectOption[] {
  if (list === 'objectSubTypes') {
    return OBJECT_SUBTYPES.map((s) => ({ value: s.value, text: t(`objects.list.objectSubTypes.${s.value}`), parent: s.parent }));
  }
  return OBJECT_LISTS[list].map((v) => ({ value: v, text: t(`objects.list.${list}.${v}`), parent: null }));
}

/** Every select list of the object's edit form. */
export function objectSelectLists(t: T): TObjectSelectLists {
  return {
    objectTypes: listOptions(t, 'objectTypes'),
    objectSubTypes: listOptions(t, 'objectSubTypes'),
    accessFrom: listOptions(t, 'accessFrom'),
    orientation: listOptions(t, 'orientation'),
    floorsType: listOptions(t, 'floorsType'),
    framesType: listOptions(t, 'framesType'),
    energyClass: listOptions(t, 'energyClass'),
    zone: listOptions(t, 'zone'),
    heatingMedium: listOptions(t, 'heatingMedium'),
    heating: listOptions(t, 'heating'),
  };
}

/** Object–account relations (owner, tenants …). */
export function relationOptions(t: T): TSelectOption[] {
  return OBJECT_RELATIONS.map((r) => ({ value: r, text: t(`objects.relation.${r}`), parent: null }));
}

export const relationName = (t: T, relation: number) => t(`objects.relation.${relation}`);

/** The type shown for an object: its subtype, else its type, else nothing. */
export function typeText(t: T, typeId: number | null | undefined, subTypeId: number | null | undefined): string {
  if (subTypeId) return t(`objects.list.objectSubTypes.${subTypeId}`);
  if (typeId) return t(`objects.list.objectTypes.${typeId}`);
  return '';
}

/** The subtype's type (its option's parent), when the subtype is known. */
export const parentTypeOf = (subTypeId: number) => OBJECT_SUBTYPES.find((s) => s.value === subTypeId)?.parent;
