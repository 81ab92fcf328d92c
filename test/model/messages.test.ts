/**
 * docs/rules.md §2 and §7: bad input gets an error naming the field path and saying what is wrong, in
 * words a user can act on. Each row is one wrong value in an otherwise valid scenario, with the exact
 * path and message it must give; the valid neighbours beside them are the values just inside each
 * rule. Issue 34: no test read most of these messages, so any of them could be emptied or a rule's
 * boundary moved without a test failing.
 */
import { describe, expect, it } from "vitest";
import { parseScenario } from "../../src/simulation/scenario";
import { IMAGE_NEW, expectValid, issuesOf, scenarioYaml, type Doc } from "./helpers";

const parse = (mutate: (s: Doc) => void) => () => parseScenario(scenarioYaml(mutate));
/** The scenario's first member, and its auto-upgrade window (added when a case needs one). */
const m0 = (s: Doc) => s.members[0];
const window = (s: Doc): Doc => {
  m0(s).maintenanceConfigurations ??= { aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { daily: { intervalDays: 1 } }, startTime: "00:00", durationHours: 4 } } };
  return m0(s).maintenanceConfigurations.aksManagedAutoUpgradeSchedule.maintenanceWindow;
};
const WINDOW = "members[0].maintenanceConfigurations.aksManagedAutoUpgradeSchedule.maintenanceWindow";
const NAME_RULE = "must be lowercase letters, digits and '-', starting and ending with a letter or digit";
const VERSION_RULE = "must be a version of the form major.minor.patch, e.g. 1.32.0";
const IMAGE_RULE = "must be a node image version such as AKSUbuntu-2204gen2containerd-202611.24.0";
const CONCURRENCY_RULE = 'must be a positive whole number ("3") or a percentage from 1% to 100% ("25%")';
const TOLERANCE_RULE = 'must be a whole number of failures ("2") or a percentage from 0% to 100% ("10%")';

type Case = [what: string, mutate: (s: Doc) => void, path: string, message: string];

function expectExactly(cases: Case[]) {
  it.each(cases)("%s", (_what, mutate, path, message) => {
    const issues = issuesOf(parse(mutate));
    expect(issues, issues.map((i) => `${i.path}: ${i.message}`).join("\n")).toContainEqual({ path, message });
  });
}

function expectAccepted(cases: Array<[what: string, mutate: (s: Doc) => void]>) {
  it.each(cases)("accepts %s", (_what, mutate) => {
    expectValid(parse(mutate));
  });
}

describe("names (stages, groups, members)", () => {
  expectExactly([
    ["an empty member name", (s) => (m0(s).name = ""), "members[0].name", "must not be empty"],
    ["a name of 51 characters", (s) => (m0(s).name = "a".repeat(51)), "members[0].name", "must be at most 50 characters"],
    ["capitals and an underscore", (s) => (m0(s).name = "Canary_1"), "members[0].name", NAME_RULE],
    ["a name ending with '-'", (s) => (m0(s).name = "canary-"), "members[0].name", NAME_RULE],
    ["a name starting with '-'", (s) => (m0(s).name = "-canary"), "members[0].name", NAME_RULE],
    ["a name with a dot inside", (s) => (m0(s).name = "can.ary"), "members[0].name", NAME_RULE],
    ["a number for a name", (s) => (m0(s).name = 7), "members[0].name", "must be a string"],
    ["no name", (s) => delete m0(s).name, "members[0].name", "is required"],
  ]);
  expectAccepted([
    ["a one-letter name", (s) => (m0(s).name = "c")],
    ["a name of 50 characters", (s) => (m0(s).name = "a".repeat(50))],
    ["digits and inner dashes", (s) => (m0(s).name = "0-canary--1")],
  ]);
});

describe("versions and images", () => {
  expectExactly([
    ["a version without a patch", (s) => (m0(s).kubernetesVersion = "1.31"), "members[0].kubernetesVersion", VERSION_RULE],
    ["a version with a fourth part", (s) => (m0(s).kubernetesVersion = "1.31.2.1"), "members[0].kubernetesVersion", VERSION_RULE],
    ["a version with a 'v'", (s) => (m0(s).kubernetesVersion = "v1.31.2"), "members[0].kubernetesVersion", VERSION_RULE],
    ["a version with letters", (s) => (m0(s).kubernetesVersion = "1.x.2"), "members[0].kubernetesVersion", VERSION_RULE],
    ["a version that is a list", (s) => (m0(s).kubernetesVersion = ["1.31.2"]), "members[0].kubernetesVersion", "must be a string"],
    ["an image without its date", (s) => (m0(s).nodePools[0].nodeImageVersion = "AKSUbuntu-2204gen2containerd"), "members[0].nodePools[0].nodeImageVersion", IMAGE_RULE],
    ["an image starting with '-'", (s) => (m0(s).nodePools[0].nodeImageVersion = "-AKSUbuntu-202611.24.0"), "members[0].nodePools[0].nodeImageVersion", IMAGE_RULE],
    ["an image ending with text", (s) => (m0(s).nodePools[0].nodeImageVersion = `${IMAGE_NEW}-beta`), "members[0].nodePools[0].nodeImageVersion", IMAGE_RULE],
    ["an image with a space", (s) => (m0(s).nodePools[0].nodeImageVersion = "AKS Ubuntu-202611.24.0"), "members[0].nodePools[0].nodeImageVersion", IMAGE_RULE],
    ["an image of 257 characters", (s) => (m0(s).nodePools[0].nodeImageVersion = `${"A".repeat(245)}-202611.24.0`), "members[0].nodePools[0].nodeImageVersion", "must be at most 256 characters"],
    ["an image that is a number", (s) => (m0(s).nodePools[0].nodeImageVersion = 202611), "members[0].nodePools[0].nodeImageVersion", "must be a string"],
  ]);
  expectAccepted([
    ["a version written as major.minor.patch with many digits", (s) => (m0(s).kubernetesVersion = "1.310.20")],
    ["an image of one family part", (s) => (m0(s).nodePools[0].nodeImageVersion = "Ubuntu-202611")],
    ["an image of 256 characters", (s) => (m0(s).nodePools[0].nodeImageVersion = `${"A".repeat(244)}-202611.24.0`)],
  ]);
});

describe("the fleet: regions, node pools, simulation", () => {
  expectExactly([
    ["a region with capitals", (s) => (m0(s).region = "WestEurope"), "members[0].region", "must be an Azure region name such as westeurope"],
    ["a region with a dash", (s) => (m0(s).region = "west-europe"), "members[0].region", "must be an Azure region name such as westeurope"],
    ["a node pool name with a capital", (s) => (m0(s).nodePools[0].name = "System"), "members[0].nodePools[0].name", "must be an AKS node pool name: lowercase letters and digits, starting with a letter, at most 12 characters"],
    ["a node pool name of 13 characters", (s) => (m0(s).nodePools[0].name = "a".repeat(13)), "members[0].nodePools[0].name", "must be an AKS node pool name: lowercase letters and digits, starting with a letter, at most 12 characters"],
    ["a node pool name starting with a digit", (s) => (m0(s).nodePools[0].name = "1pool"), "members[0].nodePools[0].name", "must be an AKS node pool name: lowercase letters and digits, starting with a letter, at most 12 characters"],
    ["no node pool", (s) => (m0(s).nodePools = []), "members[0].nodePools", "a cluster has at least one node pool"],
    ["two pools of one name", (s) => m0(s).nodePools.push({ ...m0(s).nodePools[0] }), "members[0].nodePools[1].name", "duplicate node pool name 'system'"],
    ["upgradeMinutes 0", (s) => (m0(s).simulation = { upgradeMinutes: 0 }), "members[0].simulation.upgradeMinutes", "must be greater than 0"],
    ["upgradeMinutes as text", (s) => (m0(s).simulation = { upgradeMinutes: "ten" }), "members[0].simulation.upgradeMinutes", "must be a number of minutes"],
    ["fail.attempts 0", (s) => (m0(s).simulation = { fail: { attempts: 0 } }), "members[0].simulation.fail.attempts", "must be at least 1"],
    ["fail.attempts 1.5", (s) => (m0(s).simulation = { fail: { attempts: 1.5 } }), "members[0].simulation.fail.attempts", "must be a whole number"],
    ["fail.attempts as text", (s) => (m0(s).simulation = { fail: { attempts: "one" } }), "members[0].simulation.fail.attempts", "must be a number"],
    ["an unknown power state", (s) => (m0(s).simulation = { powerState: "Deallocated" }), "members[0].simulation.powerState", "must be Running or Stopped"],
    ["healthy as text", (s) => (m0(s).simulation = { healthy: "yes" }), "members[0].simulation.healthy", "must be true or false"],
    ["no member", (s) => (s.members = []), "members", "a fleet has at least one member"],
    ["labels as a list", (s) => (m0(s).labels = ["env=prod"]), "members[0].labels", "must be a map of label keys to string values"],
    ["a label value that is a number", (s) => (m0(s).labels = { ring: 1 }), "members[0].labels.ring", "must be a string"],
    ["65 labels", (s) => (m0(s).labels = Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`l${i}`, "x"]))), "members[0].labels", "at most 64 labels"],
    ["a label key with an empty name", (s) => (m0(s).labels = { "example.com/": "x" }), "members[0].labels.example.com/", "key 'example.com/': a name of at most 63 characters, letters, digits, '-', '_' and '.', beginning and ending with a letter or digit"],
    ["a label value ending with '-'", (s) => (m0(s).labels = { env: "prod-" }), "members[0].labels.env", "value 'prod-': at most 63 characters, letters, digits, '-', '_' and '.', beginning and ending with a letter or digit"],
  ]);
  expectAccepted([
    ["64 labels, keys with a prefix, an empty value", (s) => (m0(s).labels = { ...Object.fromEntries(Array.from({ length: 62 }, (_, i) => [`l${i}`, "x"])), "fleet.azure.com/ring": "1", canary: "" })],
    ["a node pool name of 12 characters", (s) => (m0(s).nodePools[0].name = "a".repeat(12))],
    ["a fleet member with every simulation field", (s) => (m0(s).simulation = { upgradeMinutes: 0.5, fail: { attempts: 1 }, powerState: "Stopped", healthy: false })],
  ]);
});

describe("health checks", () => {
  const probe = (s: Doc, fields: Doc) => (m0(s).healthCheck = { url: "https://canary.example/healthz", ...fields });
  expectExactly([
    ["a URL that is not http", (s) => probe(s, { url: "ftp://canary.example/healthz" }), "members[0].healthCheck.url", "must be an http or https URL"],
    ["a URL whose scheme only ends in https", (s) => probe(s, { url: "xhttps://canary.example/healthz" }), "members[0].healthCheck.url", "must be an http or https URL"],
    ["a URL whose scheme only begins with http", (s) => probe(s, { url: "httpx://canary.example/healthz" }), "members[0].healthCheck.url", "must be an http or https URL"],
    ["no URL", (s) => (m0(s).healthCheck = {}), "members[0].healthCheck.url", "is required"],
    ["settleSeconds 1.5", (s) => probe(s, { settleSeconds: 1.5 }), "members[0].healthCheck.settleSeconds", "must be a whole number of seconds"],
    ["settleSeconds -1", (s) => probe(s, { settleSeconds: -1 }), "members[0].healthCheck.settleSeconds", "must not be negative"],
    ["settleSeconds as text", (s) => probe(s, { settleSeconds: "60" }), "members[0].healthCheck.settleSeconds", "must be a number of seconds"],
    ["retries 21", (s) => probe(s, { retries: 21 }), "members[0].healthCheck.retries", "must be at most 20"],
    ["retries -1", (s) => probe(s, { retries: -1 }), "members[0].healthCheck.retries", "must not be negative"],
    ["retries 1.5", (s) => probe(s, { retries: 1.5 }), "members[0].healthCheck.retries", "must be a whole number"],
    ["retries as text", (s) => probe(s, { retries: "3" }), "members[0].healthCheck.retries", "must be a number"],
    ["intervalSeconds 0", (s) => probe(s, { intervalSeconds: 0 }), "members[0].healthCheck.intervalSeconds", "must be at least 1"],
    ["intervalSeconds 2.5", (s) => probe(s, { intervalSeconds: 2.5 }), "members[0].healthCheck.intervalSeconds", "must be a whole number of seconds"],
    ["intervalSeconds as text", (s) => probe(s, { intervalSeconds: "30" }), "members[0].healthCheck.intervalSeconds", "must be a number of seconds"],
  ]);
  expectAccepted([
    ["the limits of every field", (s) => probe(s, { url: "http://canary.example/", settleSeconds: 0, retries: 20, intervalSeconds: 1 })],
    ["retries 0", (s) => probe(s, { retries: 0 })],
  ]);
});

describe("maintenance windows", () => {
  expectExactly([
    ["intervalDays 0", (s) => (window(s).schedule = { daily: { intervalDays: 0 } }), `${WINDOW}.schedule.daily.intervalDays`, "must be at least 1"],
    ["intervalDays 8", (s) => (window(s).schedule = { daily: { intervalDays: 8 } }), `${WINDOW}.schedule.daily.intervalDays`, "must be at most 7"],
    ["intervalDays 1.5", (s) => (window(s).schedule = { daily: { intervalDays: 1.5 } }), `${WINDOW}.schedule.daily.intervalDays`, "must be a whole number of days"],
    ["intervalDays as text", (s) => (window(s).schedule = { daily: { intervalDays: "1" } }), `${WINDOW}.schedule.daily.intervalDays`, "must be a number of days"],
    ["intervalWeeks 5", (s) => (window(s).schedule = { weekly: { intervalWeeks: 5, dayOfWeek: "Monday" } }), `${WINDOW}.schedule.weekly.intervalWeeks`, "must be at most 4"],
    ["intervalWeeks 1.5", (s) => (window(s).schedule = { weekly: { intervalWeeks: 1.5, dayOfWeek: "Monday" } }), `${WINDOW}.schedule.weekly.intervalWeeks`, "must be a whole number of weeks"],
    ["intervalWeeks as text", (s) => (window(s).schedule = { weekly: { intervalWeeks: "1", dayOfWeek: "Monday" } }), `${WINDOW}.schedule.weekly.intervalWeeks`, "must be a number of weeks"],
    ["intervalMonths 1.5", (s) => (window(s).schedule = { absoluteMonthly: { intervalMonths: 1.5, dayOfMonth: 1 } }), `${WINDOW}.schedule.absoluteMonthly.intervalMonths`, "must be a whole number of months"],
    ["intervalMonths as text", (s) => (window(s).schedule = { relativeMonthly: { intervalMonths: "1", weekIndex: "First", dayOfWeek: "Monday" } }), `${WINDOW}.schedule.relativeMonthly.intervalMonths`, "must be a number of months"],
    ["dayOfMonth 0", (s) => (window(s).schedule = { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 0 } }), `${WINDOW}.schedule.absoluteMonthly.dayOfMonth`, "must be from 1 to 31"],
    ["dayOfMonth 32", (s) => (window(s).schedule = { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 32 } }), `${WINDOW}.schedule.absoluteMonthly.dayOfMonth`, "must be from 1 to 31"],
    ["dayOfMonth 1.5", (s) => (window(s).schedule = { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 1.5 } }), `${WINDOW}.schedule.absoluteMonthly.dayOfMonth`, "must be a whole number"],
    ["dayOfMonth as text", (s) => (window(s).schedule = { absoluteMonthly: { intervalMonths: 1, dayOfMonth: "1" } }), `${WINDOW}.schedule.absoluteMonthly.dayOfMonth`, "must be a day of the month"],
    ["an unknown weekday", (s) => (window(s).schedule = { weekly: { intervalWeeks: 1, dayOfWeek: "Funday" } }), `${WINDOW}.schedule.weekly.dayOfWeek`, "must be one of Sunday, Monday, Tuesday, Wednesday, Thursday, Friday, Saturday"],
    ["an unknown week index", (s) => (window(s).schedule = { relativeMonthly: { intervalMonths: 1, weekIndex: "Fifth", dayOfWeek: "Monday" } }), `${WINDOW}.schedule.relativeMonthly.weekIndex`, "must be one of First, Second, Third, Fourth, Last"],
    ["durationHours 3", (s) => (window(s).durationHours = 3), `${WINDOW}.durationHours`, "must be from 4 to 24"],
    ["durationHours 25", (s) => (window(s).durationHours = 25), `${WINDOW}.durationHours`, "must be from 4 to 24"],
    ["durationHours as text", (s) => (window(s).durationHours = "4"), `${WINDOW}.durationHours`, "must be a number of hours"],
    ["startTime 24:00", (s) => (window(s).startTime = "24:00"), `${WINDOW}.startTime`, "must be a time HH:mm from 00:00 to 23:59"],
    ["startTime 9:00", (s) => (window(s).startTime = "9:00"), `${WINDOW}.startTime`, "must be a time HH:mm from 00:00 to 23:59"],
    ["startTime 12:60", (s) => (window(s).startTime = "12:60"), `${WINDOW}.startTime`, "must be a time HH:mm from 00:00 to 23:59"],
    ["startTime with seconds", (s) => (window(s).startTime = "12:00:00"), `${WINDOW}.startTime`, "must be a time HH:mm from 00:00 to 23:59"],
    ["startTime as a number", (s) => (window(s).startTime = 1200), `${WINDOW}.startTime`, "must be a time HH:mm"],
    ["utcOffset +15:00", (s) => (window(s).utcOffset = "+15:00"), `${WINDOW}.utcOffset`, "must be an offset like +05:30 or -08:00"],
    ["utcOffset without a sign", (s) => (window(s).utcOffset = "05:30"), `${WINDOW}.utcOffset`, "must be an offset like +05:30 or -08:00"],
    ["utcOffset +05:60", (s) => (window(s).utcOffset = "+05:60"), `${WINDOW}.utcOffset`, "must be an offset like +05:30 or -08:00"],
    ["utcOffset with seconds", (s) => (window(s).utcOffset = "+05:30:00"), `${WINDOW}.utcOffset`, "must be an offset like +05:30 or -08:00"],
    ["utcOffset after a zone name", (s) => (window(s).utcOffset = "UTC+05:30"), `${WINDOW}.utcOffset`, "must be an offset like +05:30 or -08:00"],
    ["utcOffset as a number", (s) => (window(s).utcOffset = 5), `${WINDOW}.utcOffset`, "must be an offset like +05:30"],
    ["a date that is not a date", (s) => (window(s).startDate = "2026-13-01"), `${WINDOW}.startDate`, "must be a valid date YYYY-MM-DD"],
    ["a date as a number", (s) => (window(s).startDate = 20261201), `${WINDOW}.startDate`, "must be a date string YYYY-MM-DD"],
    ["a span ending before it starts", (s) => (window(s).notAllowedDates = [{ start: "2026-12-24", end: "2026-12-23" }]), `${WINDOW}.notAllowedDates[0].end`, "start must not be after end"],
  ]);
  expectAccepted([
    ["the limits of every interval", (s) => (window(s).schedule = { weekly: { intervalWeeks: 4, dayOfWeek: "Sunday" } })],
    ["intervalDays 7", (s) => (window(s).schedule = { daily: { intervalDays: 7 } })],
    ["dayOfMonth 31, intervalMonths 6", (s) => (window(s).schedule = { absoluteMonthly: { intervalMonths: 6, dayOfMonth: 31 } })],
    ["dayOfMonth 1", (s) => (window(s).schedule = { absoluteMonthly: { intervalMonths: 1, dayOfMonth: 1 } })],
    ["the Last week, intervalMonths 1", (s) => (window(s).schedule = { relativeMonthly: { intervalMonths: 1, weekIndex: "Last", dayOfWeek: "Saturday" } })],
    ["durationHours 4 and 24", (s) => ((window(s).durationHours = 24), (m0(s).maintenanceConfigurations.aksManagedNodeOSUpgradeSchedule = { maintenanceWindow: { ...window(s), durationHours: 4 } }))],
    ["startTime 00:00, 09:59, 19:00 and 23:59", (s) => ["00:00", "09:59", "19:00", "23:59"].forEach((t, i) => (s.members[i].maintenanceConfigurations = { aksManagedAutoUpgradeSchedule: { maintenanceWindow: { schedule: { daily: { intervalDays: 1 } }, startTime: t, durationHours: 4 } } }))],
    ["utcOffset -14:59 and +09:30", (s) => ((window(s).utcOffset = "-14:59"), (s.members[1].maintenanceConfigurations = { aksManagedAutoUpgradeSchedule: { maintenanceWindow: { ...window(s), utcOffset: "+09:30" } } }))],
    ["a one-day span", (s) => (window(s).notAllowedDates = [{ start: "2026-12-24", end: "2026-12-24" }])],
  ]);
});

describe("strategies", () => {
  const stage0 = (s: Doc) => s.strategy.stages[0];
  const group0 = (s: Doc) => stage0(s).groups[0];
  expectExactly([
    ["stages that are not a list", (s) => (s.strategy.stages = { canary: {} }), "strategy.stages", "must be a list of stages"],
    ["no stage", (s) => (s.strategy.stages = []), "strategy.stages", "a strategy needs at least one stage"],
    ["groups that are not a list", (s) => (stage0(s).groups = "canary"), "strategy.stages[0].groups", "must be a list of groups"],
    ["a wait of 1.5 seconds", (s) => (stage0(s).afterStageWaitInSeconds = 1.5), "strategy.stages[0].afterStageWaitInSeconds", "must be a whole number of seconds"],
    ["a negative wait", (s) => (stage0(s).afterStageWaitInSeconds = -1), "strategy.stages[0].afterStageWaitInSeconds", "must not be negative"],
    ["a wait as text", (s) => (stage0(s).afterStageWaitInSeconds = "3600"), "strategy.stages[0].afterStageWaitInSeconds", "must be a number of seconds"],
    ["maxConcurrency 0", (s) => (group0(s).maxConcurrency = "0"), "strategy.stages[0].groups[0].maxConcurrency", CONCURRENCY_RULE],
    ["maxConcurrency 0%", (s) => (group0(s).maxConcurrency = "0%"), "strategy.stages[0].groups[0].maxConcurrency", CONCURRENCY_RULE],
    ["maxConcurrency 101%", (s) => (group0(s).maxConcurrency = "101%"), "strategy.stages[0].groups[0].maxConcurrency", CONCURRENCY_RULE],
    ["maxConcurrency of seven digits", (s) => (group0(s).maxConcurrency = "1000000"), "strategy.stages[0].groups[0].maxConcurrency", CONCURRENCY_RULE],
    ["maxConcurrency 03", (s) => (group0(s).maxConcurrency = "03"), "strategy.stages[0].groups[0].maxConcurrency", CONCURRENCY_RULE],
    ["maxConcurrency 2 at once", (s) => (stage0(s).maxConcurrency = "2 at once"), "strategy.stages[0].maxConcurrency", CONCURRENCY_RULE],
    ["maxConcurrency true", (s) => (group0(s).maxConcurrency = true), "strategy.stages[0].groups[0].maxConcurrency", 'must be a string such as "3" or "25%"'],
    ["maxAllowedFailures 101%", (s) => (group0(s).maxAllowedFailures = "101%"), "strategy.stages[0].groups[0].maxAllowedFailures", TOLERANCE_RULE],
    ["maxAllowedFailures 01", (s) => (group0(s).maxAllowedFailures = "01"), "strategy.stages[0].groups[0].maxAllowedFailures", TOLERANCE_RULE],
    ["maxAllowedFailures 00%", (s) => (stage0(s).maxAllowedFailures = "00%"), "strategy.stages[0].maxAllowedFailures", TOLERANCE_RULE],
    ["maxAllowedFailures true", (s) => (group0(s).maxAllowedFailures = true), "strategy.stages[0].groups[0].maxAllowedFailures", 'must be a string such as "2" or "10%"'],
    ["a gate's display name of 101 characters", (s) => (stage0(s).beforeGates = [{ type: "Approval", displayName: "g".repeat(101) }]), "strategy.stages[0].beforeGates[0].displayName", "must be at most 100 characters"],
    ["an empty gate display name", (s) => (stage0(s).beforeGates = [{ type: "Approval", displayName: "" }]), "strategy.stages[0].beforeGates[0].displayName", "must not be empty"],
    ["an unknown gate type", (s) => (stage0(s).beforeGates = [{ type: "Vote" }]), "strategy.stages[0].beforeGates[0].type", "must be Approval or ScheduledStart"],
    ["eleven gates", (s) => (stage0(s).beforeGates = Array.from({ length: 11 }, () => ({ type: "Approval" }))), "strategy.stages[0].beforeGates", "at most 10 gates"],
    ["gates that are not a list", (s) => (stage0(s).afterGates = { type: "Approval" }), "strategy.stages[0].afterGates", "must be a list of gates"],
    ["an Approval gate with a schedule", (s) => (stage0(s).beforeGates = [{ type: "Approval", scheduledStartConfiguration: { startDay: "Monday", startTime: "09:00", utcOffset: "+00:00" } }]), "strategy.stages[0].beforeGates[0].scheduledStartConfiguration", "is taken by ScheduledStart gates only"],
    ["a ScheduledStart gate without its schedule", (s) => (stage0(s).beforeGates = [{ type: "ScheduledStart" }]), "strategy.stages[0].beforeGates[0].scheduledStartConfiguration", "is required for a ScheduledStart gate"],
    ["a ScheduledStart after-gate", (s) => (group0(s).afterGates = [{ type: "Approval" }, { type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime: "09:00", utcOffset: "+00:00" } }]), "strategy.stages[0].groups[0].afterGates[1].type", "a ScheduledStart gate holds a start: it is a before-gate only"],
    ["a scheduled start at 24:00", (s) => (stage0(s).beforeGates = [{ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime: "24:00", utcOffset: "+00:00" } }]), "strategy.stages[0].beforeGates[0].scheduledStartConfiguration.startTime", "must be a time HH:mm, 00:00 to 23:59"],
    ["a scheduled start at 9:00", (s) => (stage0(s).beforeGates = [{ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime: "9:00", utcOffset: "+00:00" } }]), "strategy.stages[0].beforeGates[0].scheduledStartConfiguration.startTime", "must be a time HH:mm, 00:00 to 23:59"],
    ["a scheduled start time as a number", (s) => (stage0(s).beforeGates = [{ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime: 900, utcOffset: "+00:00" } }]), "strategy.stages[0].beforeGates[0].scheduledStartConfiguration.startTime", "must be a time HH:mm"],
    ["a scheduled start offset of +14:30", (s) => (stage0(s).beforeGates = [{ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime: "09:00", utcOffset: "+14:30" } }]), "strategy.stages[0].beforeGates[0].scheduledStartConfiguration.utcOffset", "must be an offset +HH:mm or -HH:mm from -14:00 to +14:00"],
    ["a scheduled start offset without a sign", (s) => (stage0(s).beforeGates = [{ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime: "09:00", utcOffset: "01:00" } }]), "strategy.stages[0].beforeGates[0].scheduledStartConfiguration.utcOffset", "must be an offset +HH:mm or -HH:mm from -14:00 to +14:00"],
    ["a scheduled start offset as a number", (s) => (stage0(s).beforeGates = [{ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime: "09:00", utcOffset: 1 } }]), "strategy.stages[0].beforeGates[0].scheduledStartConfiguration.utcOffset", "must be an offset such as +01:00"],
    ["a selector that is not text", (s) => (group0(s).memberSelector = { byLabel: 3 }), "strategy.stages[0].groups[0].memberSelector.byLabel", "must be a label selector"],
  ]);
  expectAccepted([
    ["maxConcurrency 1%, 100% and 999999", (s) => ((group0(s).maxConcurrency = "1%"), (s.strategy.stages[1].groups[0].maxConcurrency = "100%"), (s.strategy.stages[1].groups[1].maxConcurrency = "999999"))],
    ["maxConcurrency as a YAML number", (s) => (group0(s).maxConcurrency = 3)],
    ["maxAllowedFailures 0, 0%, 100% and 999999", (s) => ((group0(s).maxAllowedFailures = "0"), (stage0(s).maxAllowedFailures = "0%"), (s.strategy.stages[1].groups[0].maxAllowedFailures = "100%"), (s.strategy.stages[1].groups[1].maxAllowedFailures = "999999"))],
    ["a gate's display name of 100 characters, and ten gates", (s) => (stage0(s).beforeGates = Array.from({ length: 10 }, () => ({ type: "Approval", displayName: "g".repeat(100) })))],
    ["scheduled starts at 00:00, 09:59, 19:00 and 23:59, offsets -14:00 to +14:00", (s) =>
      (stage0(s).beforeGates = [
        ["00:00", "-14:00"],
        ["09:59", "+13:59"],
        ["19:00", "+14:00"],
        ["23:59", "-09:30"],
      ].map(([startTime, utcOffset]) => ({ type: "ScheduledStart", scheduledStartConfiguration: { startDay: "Monday", startTime, utcOffset } })))],
  ]);
});

describe("managedClusterUpdate and autoUpgradeProfile", () => {
  const profile = (s: Doc, p: Doc) => {
    delete s.managedClusterUpdate;
    s.autoUpgradeProfile = p;
  };
  expectExactly([
    ["an unknown node image selection", (s) => (s.managedClusterUpdate.nodeImageSelection = { type: "Newest" }), "managedClusterUpdate.nodeImageSelection.type", "must be one of Latest, Consistent, Custom"],
    ["custom images with Latest", (s) => (s.managedClusterUpdate.nodeImageSelection = { type: "Latest", customNodeImageVersions: [{ version: IMAGE_NEW }] }), "managedClusterUpdate.nodeImageSelection.customNodeImageVersions", "must be absent unless type is Custom (type is Latest)"],
    ["an unknown channel", (s) => profile(s, { channel: "Beta" }), "autoUpgradeProfile.channel", "must be one of Stable, Rapid, NodeImage, TargetKubernetesVersion, SecurityPatch"],
    ["no channel", (s) => profile(s, {}), "autoUpgradeProfile.channel", "is required"],
    ["a target with a patch", (s) => profile(s, { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.33.1" }), "autoUpgradeProfile.targetKubernetesVersion", "must be of the form major.minor, e.g. 1.33 (the latest patch is chosen when the run starts)"],
    ["a target with a 'v'", (s) => profile(s, { channel: "TargetKubernetesVersion", targetKubernetesVersion: "v1.33" }), "autoUpgradeProfile.targetKubernetesVersion", "must be of the form major.minor, e.g. 1.33 (the latest patch is chosen when the run starts)"],
    ["a target as a number", (s) => profile(s, { channel: "TargetKubernetesVersion", targetKubernetesVersion: 1.33 }), "autoUpgradeProfile.targetKubernetesVersion", "must be a string of the form major.minor, e.g. 1.33"],
    ["a target without TargetKubernetesVersion", (s) => profile(s, { channel: "Rapid", targetKubernetesVersion: "1.33" }), "autoUpgradeProfile.targetKubernetesVersion", "is taken only when channel is TargetKubernetesVersion (channel is Rapid)"],
    ["TargetKubernetesVersion without a target", (s) => profile(s, { channel: "TargetKubernetesVersion" }), "autoUpgradeProfile.targetKubernetesVersion", "is required when channel is TargetKubernetesVersion"],
    ["longTermSupport on Stable", (s) => profile(s, { channel: "Stable", longTermSupport: true }), "autoUpgradeProfile.longTermSupport", "must be false unless channel is TargetKubernetesVersion (channel is Stable)"],
    ["longTermSupport as text", (s) => profile(s, { channel: "Stable", longTermSupport: "no" }), "autoUpgradeProfile.longTermSupport", "must be true or false"],
    ["Custom images in a profile", (s) => profile(s, { channel: "Stable", nodeImageSelection: { type: "Custom" } }), "autoUpgradeProfile.nodeImageSelection.type", "must be one of Latest, Consistent"],
    ["both an update and a profile", (s) => (s.autoUpgradeProfile = { channel: "Stable" }), "autoUpgradeProfile", "give either managedClusterUpdate or autoUpgradeProfile, not both"],
    ["neither", (s) => delete s.managedClusterUpdate, "managedClusterUpdate", "is required (or autoUpgradeProfile, to generate the update when the run starts)"],
  ]);
  expectAccepted([
    ["a profile on every channel it takes", (s) => profile(s, { channel: "TargetKubernetesVersion", targetKubernetesVersion: "1.30", longTermSupport: true, nodeImageSelection: { type: "Consistent" } })],
    ["longTermSupport false on Rapid", (s) => profile(s, { channel: "Rapid", longTermSupport: false })],
    ["a target whose major has two digits", (s) => profile(s, { channel: "TargetKubernetesVersion", targetKubernetesVersion: "10.0" })],
  ]);
});

describe("actions", () => {
  expectExactly([
    ["a skip of nothing", (s) => (s.actions = [{ at: s.start, skip: [] }]), "actions[0].skip", "must name at least one item"],
    ["an approval of nothing", (s) => (s.actions = [{ at: s.start, approve: [] }]), "actions[0].approve", "must name at least one gate"],
    ["an unknown skip type", (s) => (s.actions = [{ at: s.start, skip: [{ type: "Cluster", name: "eu-1" }] }]), "actions[0].skip[0].type", "must be one of Member, Group, Stage, AfterStageWait"],
    ["an approval with no timing", (s) => (s.actions = [{ at: s.start, approve: [{ stage: "canary" }] }]), "actions[0].approve[0].timing", "is required"],
    ["an approval at an unknown timing", (s) => (s.actions = [{ at: s.start, approve: [{ stage: "canary", timing: "During" }] }]), "actions[0].approve[0].timing", "must be Before or After"],
    ["an approval of a stage without after-gates", (s) => (s.actions = [{ at: s.start, approve: [{ stage: "canary", timing: "After" }] }]), "actions[0].approve[0]", "stage 'canary' has no after-gates to approve"],
    ["an approval of a group without before-gates", (s) => (s.actions = [{ at: s.start, approve: [{ stage: "production", group: "prod-eu", timing: "Before" }] }]), "actions[0].approve[0]", "group 'prod-eu' of stage 'production' has no before-gates to approve"],
    ["until at start", (s) => (s.until = s.start), "until", "must be after start"],
    ["a start that is only a date", (s) => (s.start = "2026-12-05"), "start", "must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z"],
    ["a start without a zone", (s) => (s.start = "2026-12-05T00:00:00"), "start", "must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z"],
    ["a start on 30 February", (s) => (s.start = "2026-02-30T00:00:00Z"), "start", "must be an ISO 8601 date-time with a zone, e.g. 2026-12-05T00:00:00Z"],
    ["a start as a number", (s) => (s.start = 1), "start", "must be an ISO 8601 date-time string"],
  ]);
  expectAccepted([
    ["instants with seconds, fractions and offsets", (s) => ((s.start = "2026-12-05T00:00+01:00"), (s.until = "2026-12-06T00:00:00.123456789-02:00"))],
    ["the first and last instants a user may write", (s) => ((s.start = "1970-01-01T00:00:00Z"), (s.until = "1970-01-02T00:00:00Z"), (s.regions.westeurope.nodeImages[0].availableAt = "2999-12-31T23:59:59Z"))],
  ]);
});
