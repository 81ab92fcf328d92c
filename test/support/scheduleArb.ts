/** fast-check: any AKS maintenance schedule within AKS's limits (one kind each). */
import fc from "fast-check";
import { DAYS_OF_WEEK, WEEK_INDEXES } from "../../src/model/maintenanceWindow";

export const scheduleArb = fc.oneof(
  fc.record({ daily: fc.record({ intervalDays: fc.integer({ min: 1, max: 7 }) }) }),
  fc.record({ weekly: fc.record({ intervalWeeks: fc.integer({ min: 1, max: 4 }), dayOfWeek: fc.constantFrom(...DAYS_OF_WEEK) }) }),
  fc.record({ absoluteMonthly: fc.record({ intervalMonths: fc.integer({ min: 1, max: 6 }), dayOfMonth: fc.integer({ min: 1, max: 31 }) }) }),
  fc.record({
    relativeMonthly: fc.record({
      intervalMonths: fc.integer({ min: 1, max: 6 }),
      weekIndex: fc.constantFrom(...WEEK_INDEXES),
      dayOfWeek: fc.constantFrom(...DAYS_OF_WEEK),
    }),
  }),
);
