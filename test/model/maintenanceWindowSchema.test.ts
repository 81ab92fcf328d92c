/**
 * docs/rules.md §7 maintenance window schema (AKS `maintenanceWindow`): one schedule kind, 4-24 h, HH:mm start,
 * ±HH:mm offset, real dates, notAllowedDates spans in order. Checked on the schema (with the prefix a
 * scenario uses) and through scenario YAML.
 */
import { describe, expect, it } from "vitest";
import { parseOrThrow, parsePath } from "../../src/model/issues";
import { MaintenanceWindowSchema } from "../../src/model/maintenanceWindow";
import { parseScenario } from "../../src/simulation/scenario";
import { expectIssue, expectValid, scenarioYaml, type Doc } from "./helpers";

const MW = "members[0].maintenanceConfigurations.aksManagedAutoUpgradeSchedule.maintenanceWindow";
const NODE_OS_MW = "members[0].maintenanceConfigurations.aksManagedNodeOSUpgradeSchedule.maintenanceWindow";
const okWindow = (): Doc => ({ schedule: { weekly: { intervalWeeks: 1, dayOfWeek: "Saturday" } }, startTime: "02:00", durationHours: 6, utcOffset: "+00:00" });

/** Validate `change(okWindow())` both directly and as member 0's auto-upgrade window in a scenario. */
function window(change: (w: Doc) => void): { direct: () => unknown; scenario: () => unknown } {
  const w = okWindow();
  change(w);
  return {
    direct: () => parseOrThrow(MaintenanceWindowSchema, w, parsePath(MW)),
    scenario: () => parseScenario(scenarioYaml((s) => (s.members[0].maintenanceConfigurations = { aksManagedAutoUpgradeSchedule: { maintenanceWindow: w } }))),
  };
}

function rejects(change: (w: Doc) => void, field: string, message: string) {
  const { direct, scenario } = window(change);
  expectIssue(direct, `${MW}${field}`, message);
  expectIssue(scenario, `${MW}${field}`, message);
}

function accepts(change: (w: Doc) => void) {
  const { direct, scenario } = window(change);
  expectValid(direct);
  expectValid(scenario);
}

describe("docs/rules.md §7: exactly one schedule kind", () => {
  it("rejects none, at schedule", () => {
    rejects((w) => (w.schedule = {}), ".schedule", "must set exactly one of daily, weekly, absoluteMonthly, relativeMonthly (found none)");
  });

  it("rejects two, naming them", () => {
    rejects((w) => (w.schedule.daily = { intervalDays: 1 }), ".schedule", "found daily, weekly");
  });

  it.each([
    { daily: { intervalDays: 1 } },
    { weekly: { intervalWeeks: 4, dayOfWeek: "Monday" } },
    { absoluteMonthly: { intervalMonths: 6, dayOfMonth: 31 } },
    { relativeMonthly: { intervalMonths: 1, weekIndex: "Last", dayOfWeek: "Friday" } },
  ])("accepts %j", (schedule) => accepts((w) => (w.schedule = schedule)));

  it("counts a kind a program leaves undefined as not set", () => {
    const w = { ...okWindow(), schedule: { daily: undefined, weekly: { intervalWeeks: 1, dayOfWeek: "Saturday" }, absoluteMonthly: undefined } };
    expectValid(() => parseOrThrow(MaintenanceWindowSchema, w, parsePath(MW)));
    expectIssue(() => parseOrThrow(MaintenanceWindowSchema, { ...w, schedule: { daily: undefined } }, parsePath(MW)), `${MW}.schedule`, "(found none)");
  });

  it("names a bad field inside the schedule", () => {
    rejects((w) => (w.schedule.weekly.dayOfWeek = "Caturday"), ".schedule.weekly.dayOfWeek", "must be one of Sunday");
    rejects((w) => (w.schedule = { daily: { intervalDays: 8 } }), ".schedule.daily.intervalDays", "at most 7");
    rejects((w) => (w.schedule = { relativeMonthly: { intervalMonths: 1, weekIndex: "Fifth", dayOfWeek: "Friday" } }), ".schedule.relativeMonthly.weekIndex", "First, Second");
  });
});

describe("docs/rules.md §7: durationHours is 4-24", () => {
  it.each([3, 25, 0, -4])("rejects %j", (h) => rejects((w) => (w.durationHours = h), ".durationHours", "must be from 4 to 24"));
  it("rejects a fraction", () => rejects((w) => (w.durationHours = 4.5), ".durationHours", "whole number of hours"));
  it.each([4, 24])("accepts %j", (h) => accepts((w) => (w.durationHours = h)));
});

describe("docs/rules.md §7: startTime is HH:mm", () => {
  it.each(["24:00", "9:00", "09:60", "0900", "09:00:00", ""])("rejects %j", (t) => rejects((w) => (w.startTime = t), ".startTime", "must be a time HH:mm"));
  it.each(["00:00", "09:30", "23:59"])("accepts %j", (t) => accepts((w) => (w.startTime = t)));
  it("is required", () => rejects((w) => delete w.startTime, ".startTime", "is required"));
});

describe("docs/rules.md §7: utcOffset is +HH:mm", () => {
  it.each(["+5:30", "05:30", "+05:3", "+15:00", "UTC", "+05:60"])("rejects %j", (o) => rejects((w) => (w.utcOffset = o), ".utcOffset", "must be an offset like +05:30"));
  it.each(["+05:30", "-08:00", "+14:00", "+00:00"])("accepts %j", (o) => accepts((w) => (w.utcOffset = o)));
  it("is optional", () => accepts((w) => delete w.utcOffset));
});

describe("docs/rules.md §7: startDate and notAllowedDates are real dates, spans in order", () => {
  it.each(["2026-02-30", "2026-13-01", "2026-2-01", "20260201", "2026-02-28T00:00:00Z"])("rejects startDate %j", (d) =>
    rejects((w) => (w.startDate = d), ".startDate", "must be a valid date YYYY-MM-DD"),
  );
  it.each(["2026-02-28", "2028-02-29"])("accepts startDate %j", (d) => accepts((w) => (w.startDate = d)));

  it("rejects a notAllowedDates span whose start is after its end, at the span's end", () => {
    rejects((w) => (w.notAllowedDates = [{ start: "2026-12-24", end: "2026-12-26" }, { start: "2026-12-31", end: "2026-12-30" }]), ".notAllowedDates[1].end", "start must not be after end");
  });

  it("rejects a bad date inside a span", () => {
    rejects((w) => (w.notAllowedDates = [{ start: "2026-02-30", end: "2026-03-01" }]), ".notAllowedDates[0].start", "must be a valid date");
  });

  it("accepts one-day and multi-day spans", () => {
    accepts((w) => (w.notAllowedDates = [{ start: "2026-12-24", end: "2026-12-24" }, { start: "2026-12-30", end: "2027-01-02" }]));
  });
});

describe("maintenance configurations in a scenario", () => {
  it("validates the node OS window too, at its own path", () => {
    const yaml = scenarioYaml((s) => {
      s.members[0].maintenanceConfigurations = { aksManagedNodeOSUpgradeSchedule: { maintenanceWindow: { ...okWindow(), durationHours: 3 } } };
    });
    expectIssue(() => parseScenario(yaml), `${NODE_OS_MW}.durationHours`, "must be from 4 to 24");
  });

  it("reports every bad field of one window at once", () => {
    const { scenario } = window((w) => {
      w.schedule = {};
      w.durationHours = 25;
      w.startTime = "9:00";
      w.utcOffset = "+5:30";
    });
    const issues = expectIssue(scenario, `${MW}.schedule`, "found none");
    expect(issues.map((i) => i.path).sort()).toEqual([`${MW}.durationHours`, `${MW}.schedule`, `${MW}.startTime`, `${MW}.utcOffset`]);
  });

  it("rejects an unknown configuration name", () => {
    expectIssue(
      () => parseScenario(scenarioYaml((s) => (s.members[0].maintenanceConfigurations = { default: { maintenanceWindow: okWindow() } }))),
      "members[0].maintenanceConfigurations.default",
      "unknown field",
    );
  });
});
