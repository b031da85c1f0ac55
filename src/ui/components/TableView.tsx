import { useMemo } from "react";
import { Text } from "ink";
import { renderTable, DEFAULT_PAGE_SIZE } from "../table.js";

/** A user/structured value as a windowed table (only one page reaches cli-table3). */
export function TableView({
  value,
  width,
  offset = 0,
  pageSize = DEFAULT_PAGE_SIZE,
  rowBase = 0,
}: {
  value: unknown;
  width: number;
  offset?: number;
  pageSize?: number;
  /** Rows on the server's earlier pages: numbering starts after them. */
  rowBase?: number;
}) {
  const text = useMemo(
    () => renderTable(value, { width, offset, pageSize, rowBase }),
    [value, width, offset, pageSize, rowBase],
  );
  return <Text>{text}</Text>;
}
