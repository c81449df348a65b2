import type { ColumnType } from "kysely";

/** Column types shared by the table types of schema.ts and the schema-*.ts files split from it. */

export type Family = "frontend" | "backend" | "load";
export type Timestamp = ColumnType<Date, Date | string, Date | string>;
export type Defaulted<T> = ColumnType<T, T | undefined, T>;
/** A timestamp with a database default: optional on insert, settable (tests, demo data). */
export type DefaultTimestamp = ColumnType<Date, Date | string | undefined, Date | string>;
