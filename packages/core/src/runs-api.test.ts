import { describe, expect, it } from "vitest";
import {
  ApiLogQuerySchema,
  HistoryQuerySchema,
  RunListQuerySchema,
  TestIdParamsSchema,
} from "./runs-api.js";

describe("paging queries", () => {
  it("defaults to page 1 of 15 runs, or 100 API requests", () => {
    expect(RunListQuerySchema.parse({})).toEqual({ page: 1, page_size: 15 });
    expect(ApiLogQuerySchema.parse({})).toEqual({ page: 1, page_size: 100 });
  });

  it("accepts only the spec's page sizes", () => {
    for (const size of ["10", "15", "20", "30", "100"]) {
      expect(RunListQuerySchema.parse({ page_size: size }).page_size).toBe(Number(size));
    }
    for (const size of ["25", "0", "abc", "1000"]) {
      expect(RunListQuerySchema.safeParse({ page_size: size }).success, size).toBe(false);
    }
    expect(ApiLogQuerySchema.parse({ page_size: "10000" }).page_size).toBe(10_000);
    expect(ApiLogQuerySchema.safeParse({ page_size: "15" }).success).toBe(false);
    expect(RunListQuerySchema.safeParse({ page: "0" }).success).toBe(false);
  });

  it("reads force and isNextGen as booleans", () => {
    expect(RunListQuerySchema.parse({ force: "true" }).force).toBe(true);
    expect(HistoryQuerySchema.parse({ isNextGen: "false" })).toEqual({
      isNextGen: false,
      limit: 100,
    });
  });
});

describe("TestIdParamsSchema", () => {
  it("takes digits only", () => {
    expect(TestIdParamsSchema.parse({ id: "1234" })).toEqual({ id: 1234 });
    for (const id of ["abc", "1e3", "-1", "12.5", " 12", ""]) {
      expect(TestIdParamsSchema.safeParse({ id }).success, id).toBe(false);
    }
  });
});
