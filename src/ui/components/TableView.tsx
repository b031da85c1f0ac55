import { useMemo } from "react";
import { Text } from "ink";
import { renderTable, DEFAULT_PAGE_SIZE } from "../table.js";

/** A user/structured value as a windowed table (only one page reaches cli-table3). */
export function TableView({
  value,
  width,
  offset = 0,
  pageSize = DEFAULT_PAGE_SIZE,
}: {
  value: unknown;
  width: number;
  offset?: number;
  pageSize?: number;
}) {
  const text = useMemo(() => renderTable(value, { width, offset, pageSize }), [value, width, offset, pageSize]);
  return <Text>{text}</Text>;
}
