// Offset paging of a filtered, ordered query: one page of its rows and the count of them all.
import type { SelectQueryBuilder } from 'kysely';

export interface Page<Item> {
  list: Item[];
  total: number;
  page: number;
  pageSize: number;
}

/**
 * Page `page` (from 1) of `rows`, each shaped by `toItem`, with the total of rows the query matches. The total is
 * counted from the same query, so its joins must keep one row per row (left joins on the joined table's key).
 */
export async function pageOf<DB, TB extends keyof DB, O, Item>(
  rows: SelectQueryBuilder<DB, TB, O>,
  page: number,
  pageSize: number,
  toItem: (row: O) => Item,
): Promise<Page<Item>> {
  const list = await rows
    .limit(pageSize)
    .offset((page - 1) * pageSize)
    .execute();
  const { total } = await rows
    .clearSelect()
    .clearOrderBy()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    // Over a generic query the selection's type is not worked out; the count is this one column.
    .$castTo<{ total: number }>()
    .executeTakeFirstOrThrow();
  return { list: list.map(toItem), total: Number(total), page, pageSize };
}
