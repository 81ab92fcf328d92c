/**
 * The AKS `maintenanceWindow` schema (maintenance configurations `aksManagedAutoUpgradeSchedule` and
 * `aksManagedNodeOSUpgradeSchedule`), with AKS's own limits. When a window is open is computed in
 * `src/engine/maintenanceWindow.ts`.
 */
import { z } from "zod";
import { DateSchema } from "./instants";
import { orRequired } from "./values";

export const DAYS_OF_WEEK = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"] as const;
export const DayOfWeekSchema = z.enum(DAYS_OF_WEEK, { error: orRequired(`must be one of ${DAYS_OF_WEEK.join(", ")}`) });
export type DayOfWeek = z.infer<typeof DayOfWeekSchema>;

export const WEEK_INDEXES = ["First", "Second", "Third", "Fourth", "Last"] as const;
export const WeekIndexSchema = z.enum(WEEK_INDEXES, { error: orRequired(`must be one of ${WEEK_INDEXES.join(", ")}`) });
export type WeekIndex = z.infer<typeof WeekIndexSchema>;

const interval = (max: number, unit: string) =>
  z.number({ error: orRequired(`must be a number of ${unit}`) }).int(`must be a whole number of ${unit}`).min(1, "must be at least 1").max(max, `must be at most ${max}`);

export const ScheduleSchema = z
  .strictObject({
    daily: z.strictObject({ intervalDays: interval(7, "days") }).optional(),
    weekly: z.strictObject({ intervalWeeks: interval(4, "weeks"), dayOfWeek: DayOfWeekSchema }).optional(),
    absoluteMonthly: z
      .strictObject({
        intervalMonths: interval(6, "months"),
        dayOfMonth: z.number({ error: orRequired("must be a day of the month") }).int("must be a whole number").min(1, "must be from 1 to 31").max(31, "must be from 1 to 31"),
      })
      .optional(),
    relativeMonthly: z
      .strictObject({ intervalMonths: interval(6, "months"), weekIndex: WeekIndexSchema, dayOfWeek: DayOfWeekSchema })
      .optional(),
  })
  .superRefine((schedule, ctx) => {
    const kinds = Object.entries(schedule).filter(([, v]) => v !== undefined);
    if (kinds.length !== 1) {
      ctx.addIssue({
        code: "custom",
        message: `must set exactly one of daily, weekly, absoluteMonthly, relativeMonthly (found ${kinds.length === 0 ? "none" : kinds.map(([k]) => k).join(", ")})`,
      });
    }
  });
export type Schedule = z.infer<typeof ScheduleSchema>;

export const DateSpanSchema = z
  .strictObject({ start: DateSchema, end: DateSchema })
  .refine((span) => span.start <= span.end, { message: "start must not be after end", path: ["end"] });
export type DateSpan = z.infer<typeof DateSpanSchema>;

export const MaintenanceWindowSchema = z.strictObject({
  schedule: ScheduleSchema,
  /** 4 to 24 hours, as AKS allows. */
  durationHours: z.number({ error: orRequired("must be a number of hours") }).int("must be a whole number of hours").min(4, "must be from 4 to 24").max(24, "must be from 4 to 24"),
  /** `HH:mm`, local to `utcOffset`. */
  startTime: z.string({ error: orRequired("must be a time HH:mm") }).regex(/^([01]\d|2[0-3]):[0-5]\d$/, "must be a time HH:mm from 00:00 to 23:59"),
  /** `+HH:mm` / `-HH:mm`; default `+00:00`. */
  utcOffset: z.string({ error: orRequired("must be an offset like +05:30") }).regex(/^[+-](0\d|1[0-4]):[0-5]\d$/, "must be an offset like +05:30 or -08:00").optional(),
  /** Anchor of the interval, local date; the window never opens before it. */
  startDate: DateSchema.optional(),
  /** Local dates (inclusive) on which the window stays closed. */
  notAllowedDates: z.array(DateSpanSchema).optional(),
});
export type MaintenanceWindow = z.infer<typeof MaintenanceWindowSchema>;

export const MaintenanceConfigurationsSchema = z.strictObject({
  /** Governs Full and ControlPlaneOnly upgrades (docs/rules.md §3.3). */
  aksManagedAutoUpgradeSchedule: z.strictObject({ maintenanceWindow: MaintenanceWindowSchema }).optional(),
  /** Governs NodeImageOnly upgrades (docs/rules.md §3.3). */
  aksManagedNodeOSUpgradeSchedule: z.strictObject({ maintenanceWindow: MaintenanceWindowSchema }).optional(),
});
export type MaintenanceConfigurations = z.infer<typeof MaintenanceConfigurationsSchema>;
