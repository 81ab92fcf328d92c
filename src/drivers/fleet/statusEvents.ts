/**
 * Progress from Fleet Manager: the client sees the run only through its status, read at each GET, so
 * its events (progress lines, `--events`, webhooks) are the state changes between two reads. An
 * event's time is the item's own (its completedTime when it ended, its startTime when it started),
 * else the read's.
 */
import { isoInstant } from "../../model/instants";
import { FINISHED_STATES, type RunEvent, type UpdateRunStatus, type UpdateState, type UpdateStatus } from "../../model/status";

type Scope = RunEvent["scope"];

interface Item {
  scope: Scope;
  name: string;
  status: UpdateStatus;
  message?: string;
}

function items(runName: string, status: UpdateRunStatus): Map<string, Item> {
  const out = new Map<string, Item>();
  out.set(`run/${runName}`, { scope: "run", name: runName, status: status.status });
  for (const stage of status.stages) {
    out.set(`stage/${stage.name}`, { scope: "stage", name: stage.name, status: stage.status });
    for (const group of stage.groups) {
      out.set(`group/${stage.name}/${group.name}`, { scope: "group", name: group.name, status: group.status });
      for (const m of group.members) out.set(`member/${m.name}`, { scope: "member", name: m.name, status: m.status, ...(m.message === undefined ? {} : { message: m.message }) });
    }
    if (stage.afterStageWaitStatus !== undefined) out.set(`wait/${stage.name}`, { scope: "wait", name: stage.name, status: stage.afterStageWaitStatus.status });
  }
  return out;
}

function eventTime(status: UpdateStatus, readAt: number): string {
  if (FINISHED_STATES.has(status.state) && status.completedTime !== undefined) return status.completedTime;
  if (status.state === "Running" && status.startTime !== undefined) return status.startTime;
  return isoInstant(readAt);
}

/** The state changes from `before` (undefined: nothing seen yet, every item NotStarted) to `after`, in tree order. */
export function statusChanges(runName: string, before: UpdateRunStatus | undefined, after: UpdateRunStatus, readAt: number): RunEvent[] {
  const old = before === undefined ? new Map<string, Item>() : items(runName, before);
  const events: RunEvent[] = [];
  for (const [key, item] of items(runName, after)) {
    const from: UpdateState = old.get(key)?.status.state ?? "NotStarted";
    const to = item.status.state;
    if (from === to) continue;
    const message = item.status.error?.message ?? item.message;
    events.push({ time: eventTime(item.status, readAt), scope: item.scope, name: item.name, from, to, ...(message === undefined ? {} : { message }) });
  }
  return events;
}
