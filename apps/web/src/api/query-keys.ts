/** Every query key in one place, so that invalidations and prefetches cannot drift from the hooks. */
export const queryKeys = {
  catalog: ["catalog"] as const,
};
