// @ts-check
/**
 * Mutation testing of the engine and the model, with the scenario files that left model/ for
 * src/simulation/ (issue 34): `npm run mutation`. Not part of CI (it takes
 * long); its scores are in docs/bench.md, "Mutation testing". Incremental: the results of the last run
 * are kept in reports/stryker-incremental.json (not committed), so a re-run after a small change tests
 * only the mutants whose code or covering tests changed. `npm run mutation -- --force` re-runs them all.
 */

/**
 * Mutants that cannot change what a user sees (an equivalent mutant, or a cache shortcut that only
 * costs time), one line each: the file, the exact source of the smallest expression or statement
 * holding them (`within`: how an enclosing one begins, where `code` alone is not unique), and why.
 * Every mutant inside `code` is ignored (Stryker's ignorers work on syntax nodes, not on single
 * mutators). `mutation/equivalentIgnorer.mjs` applies the list and names entries that match nothing.
 * @type {{ file: string; code: string; within?: string; reason: string }[]}
 */
export const equivalentMutants = [
  // src/engine/halt.ts
  { file: "src/engine/halt.ts", code: 'run.control === "Halting"', reason: "starting the halt again while Halting changes nothing (no member or gate is Pending then, and the reason is a failure either way): the early return only saves a walk over the run" },
  { file: "src/engine/halt.ts", code: "false", within: 'if (run.control !== "Halting" || ctx.inFlight.size > 0) return false;', reason: "answering true when no halt ended only has every stage aggregated again, which changes nothing" },
  // src/engine/engine.ts
  { file: "src/engine/engine.ts", code: "this.ctx.inFlight.size === 0", reason: "nothing is in flight in a run that is NotStarted, Halted (a halt ends only when the last upgrade has: endHalt) or Completed/Skipped: the test is a safeguard" },
  // src/engine/control.ts
  { file: "src/engine/control.ts", code: 'run.state === "Completed"', within: 'if (run.control === "Running" || run.state === "Completed" || run.state === "Skipped") return;', reason: "starting a finished run changes nothing visible: no member is Failed in a Completed group, so nothing is retried and every stage stays done" },
  { file: "src/engine/control.ts", code: 'run.state === "Skipped"', within: 'if (run.control === "Running" || run.state === "Completed" || run.state === "Skipped") return;', reason: "as above, for a run whose every stage was skipped" },
  { file: "src/engine/control.ts", code: "member.request = undefined;", reason: "a retried member's last request is read by nothing before its next start writes a new one" },
  { file: "src/engine/control.ts", code: "member.checkAgainAt = now;", reason: "a member in flight with no checkAgainAt is due at once (InFlight.reschedule), as at now" },
  // src/engine/execute.ts
  { file: "src/engine/execute.ts", code: "ctx.clusters.delete(member.name);", reason: "a cache: the member's cached read was already dropped when it started (markRunning), and verification reads are not kept" },
  // src/engine/readyQueue.ts
  { file: "src/engine/readyQueue.ts", code: "members.sort((a, b) => this.indexOf(a) - this.indexOf(b));", reason: "members become stale in declaration order wherever an uncached read could follow (a new or resumed run, a retry, a halt); others were read when decided: the order only orders cache hits, and each member is queued by its declaration index anyway" },
  { file: "src/engine/readyQueue.ts", code: "until !== Number.POSITIVE_INFINITY", reason: "a change queued at Infinity never comes due: leaving it out only saves memory" },
  { file: "src/engine/readyQueue.ts", code: 'm.state === "Pending"', within: "for (const m of this.deferred)", reason: "a member decided in this pass that is not Pending (started, skipped) can only make the group look again early, at an instant where nothing has changed" },
  // src/engine/transitions.ts
  { file: "src/engine/transitions.ts", code: "this.bufferedAt = undefined;", reason: "after a flush the buffer is empty: whether the next change at another instant flushes it first makes no difference" },
  { file: "src/engine/transitions.ts", code: "if (this.buffer.size === 0) return;", reason: "flushing an empty buffer emits nothing either way: the early return only saves an empty copy" },
  // src/engine/inFlight.ts: defensive guards the engine never reaches (it adds a place once, deletes it once, and a place's checkAgainAt only grows)
  { file: "src/engine/inFlight.ts", code: "this.places.has(place)", within: "if (this.places.has(place)) return;", reason: "the engine adds each place once (when it starts running)" },
  { file: "src/engine/inFlight.ts", code: "!this.places.delete(place)", reason: "the engine deletes each place once (endFollowing)" },
  { file: "src/engine/inFlight.ts", code: "this.queuedAt.get(place) === at", reason: "a place is rescheduled only after due() took it out (queuedAt cleared): the guard never holds; due() drops repeats anyway" },
  { file: "src/engine/inFlight.ts", code: "this.queuedAt.get(top.place) === top.at", within: "earliest(): number {", reason: "a stale entry reported as the earliest only wakes the engine early: that pass's due() discards it" },
  { file: "src/engine/inFlight.ts", code: "this.queuedAt.get(top.place) !== top.at || seen.has(top.place)", reason: "due() never pops a stale or repeated entry: a place is queued again only after due() took it out (its entry popped), and leaves the set only while it is followed, so the skip is a guard of the queue's own consistency" },
  // src/model/instants.ts
  { file: "src/model/instants.ts", code: "CALENDAR_DAYS.size < 10_000", reason: "the bound of a cache of days found real: keeping more or none only costs memory or time" },
  { file: "src/model/instants.ts", code: '""', within: "let lastIso = ", reason: "never returned: the last instant starts as NaN, which no instant equals" },
  { file: "src/model/instants.ts", code: '""', within: "let lastDayPrefix = ", reason: "never written out: the last day starts as NaN, so the first instant writes its day" },
  // src/engine/tally.ts
  { file: "src/engine/tally.ts", code: "set.size === 0", reason: "an empty dirty set sorts and clears to the same empty list: the early return only saves the copy" },
];

/**
 * Equivalent mutants Stryker cannot leave out: one mutator's replacement of a node whose other
 * replacements change behaviour (an ignorer leaves out every mutant of a node, a `// Stryker disable`
 * comment every mutant of a line). They stay in the run and count as survivors in Stryker's score;
 * `node mutation/report.mjs` matches each against the report (the file, a text of its line, the
 * mutator, and the replacement when several of that mutator are on the line), prints the score with
 * them counted as equivalent beside Stryker's own, and names any survivor that is in neither list.
 * @type {{ file: string; code: string; mutator: string; replacement?: string; reason: string }[]}
 */
export const equivalentSurvivors = [
  // src/engine/execute.ts
  ...["ConditionalExpression", "EqualityOperator"].map((mutator) => ({ file: "src/engine/execute.ts", code: "if (ctx.interrupted.size > 0) await adoptInterruptedStarts(ctx, now);", mutator, reason: "adopting from an empty set of interrupted starts does nothing (its loop has no place): the test only saves an await" })),
  { file: "src/engine/execute.ts", code: "member.checkAgainAt = op.checkAgainAt !== undefined && op.checkAgainAt > now ? op.checkAgainAt : now + ctx.pollInterval();", mutator: "ConditionalExpression", replacement: "true", reason: "(the test of undefined alone) `undefined > now` is false: the test is there for the type checker" },
  { file: "src/engine/execute.ts", code: "const checkAgainAt = op.checkAgainAt !== undefined && op.checkAgainAt > now ? op.checkAgainAt : now + ctx.pollInterval();", mutator: "ConditionalExpression", replacement: "true", reason: "(the test of undefined alone) `undefined > now` is false: the test is there for the type checker" },
  ...[["ConditionalExpression", "false"], ["LogicalOperator", undefined]].map(([mutator, replacement]) => ({ file: "src/engine/execute.ts", code: "if (isFinished(group.state) || group.afterGates === undefined) return;", mutator, ...(replacement === undefined ? {} : { replacement }), reason: "a shortcut: a finished group's after-gates are passed or skipped (reaching them again changes nothing), and a group without after-gates is settled whenever it is touched (settleStage): settling it here again changes nothing" })),
  { file: "src/engine/execute.ts", code: "if (wait.endsAt === undefined) {", mutator: "ConditionalExpression", replacement: "true", reason: "the wait starts at its groups' latest end, fixed once they are all done (a wait runs only then, and a start reopens no done group): computed again, it is the same" },
  ...[["ConditionalExpression", "true"], ["LogicalOperator", undefined]].map(([mutator, replacement]) => ({ file: "src/engine/execute.ts", code: "(g) => !isFinished(g.state) && (ctx.groupDueAt.get(g) ?? 0) <= now && reachGates(ctx, g.beforeGates, now) && running(g) < g.maxConcurrency,", mutator, ...(replacement === undefined ? {} : { replacement }), reason: "a finished group has no candidate left to start, and a group asleep until groupDueAt has none that can start before then (each was decided in the pass that put it to sleep; anything new touches the group, context.touch): looking early decides the same, it only costs reads" })),
  { file: "src/engine/execute.ts", code: "for (let i = 1; i < counts.length; i++) if ((counts[i] as number) < (counts[best] as number)) best = i;", mutator: "EqualityOperator", replacement: "i <= counts.length", reason: "counts[counts.length] is undefined, and `undefined < n` is false: best never moves to it" },
  { file: "src/engine/execute.ts", code: "if (ctx.run.haltReason !== undefined) return false;", mutator: "BooleanLiteral", reason: "the run halted: the pass starts nothing more (fillStage tests the control), and whether the group is put to sleep does not matter: a start touches every group (control.ts startRun)" },
  { file: "src/engine/execute.ts", code: "if (decision.windowClosed === true && checkAgainAt !== undefined) queue.park(member, checkAgainAt);", mutator: "ConditionalExpression", replacement: "true", reason: "(the test of checkAgainAt) a decision that the window is closed always carries its opening (checks.ts): the test is there for the type checker" },
  { file: "src/engine/execute.ts", code: "if (isPending(soaked)) await soaked;", mutator: "ConditionalExpression", replacement: "true", reason: "awaiting an answer given at once (a boolean) only costs a tick" },
  { file: "src/engine/execute.ts", code: "if (members.Skipped !== members.total) reachGates(ctx, group.afterGates, now);", mutator: "ConditionalExpression", replacement: "true", reason: "a group whose members were all skipped was settled Skipped when the last one was (fillStage, or the skip's settleRun), so passGroupEnd returned above: the test is a safeguard" },
  { file: "src/engine/execute.ts", code: "  return false;", mutator: "BooleanLiteral", reason: "(refused) a member not started, told started: the group's pass goes on to its next candidate all the same (fillStage picks the same group again: its count did not change), and after a halt the pass ends either way (a start touches every group)" },
  { file: "src/engine/execute.ts", code: "if (stage.wait.state === \"Running\" && stage.wait.endsAt !== undefined && stage.wait.endsAt > now) next = Math.min(next, stage.wait.endsAt);", mutator: "ConditionalExpression", replacement: "true", reason: "(the test of endsAt, and of endsAt > now) a Running wait always has its end (passWait sets it first), `undefined > now` is false, and an acting pass ends a Running wait of the current stage whose end has come (every group is done while a wait runs, and a start reopens none): the guard against an endless loop at one instant never holds; an observing pass's wake is not used (engine.observe)" },
  { file: "src/engine/execute.ts", code: "if (stage.wait.state === \"Running\" && stage.wait.endsAt !== undefined && stage.wait.endsAt > now) next = Math.min(next, stage.wait.endsAt);", mutator: "EqualityOperator", replacement: "stage.wait.endsAt >= now", reason: "as above: a Running wait of the current stage never ends at or before the pass's instant when the wake is computed" },
  // src/engine/times.ts: the latest end and the earliest start of parts, some of which have none
  { file: "src/engine/times.ts", code: "if (at !== undefined && (found === undefined || at > found)) found = at;", mutator: "ConditionalExpression", replacement: "true", reason: "an instant left undefined passes the rest only while none was found, where taking it leaves found undefined" },
  { file: "src/engine/times.ts", code: "if (at !== undefined && (found === undefined || at > found)) found = at;", mutator: "EqualityOperator", replacement: "at >= found", reason: "an instant equal to the latest found replaces it with the same number" },
  { file: "src/engine/times.ts", code: "if (member.startTime !== undefined && (earliest === undefined || member.startTime < earliest))", mutator: "ConditionalExpression", replacement: "true", reason: "(the test of startTime alone) a member not started passes the rest only while none was found, where taking its start leaves earliest undefined" },
  { file: "src/engine/times.ts", code: "if (member.startTime !== undefined && (earliest === undefined || member.startTime < earliest))", mutator: "EqualityOperator", replacement: "member.startTime <= earliest", reason: "a start equal to the earliest found replaces it with the same number" },
  { file: "src/engine/times.ts", code: "return [...(item.beforeGates ?? []), ...(item.afterGates ?? [])];", mutator: "ArrayDeclaration", reason: "a string in place of a missing gate list has no completedTime: it adds an undefined end, which latest() skips" },
  { file: "src/engine/times.ts", code: "for (const analysis of stage.analysis ?? []) yield analysis.finishedAt;", mutator: "ArrayDeclaration", reason: "a string in place of a missing analysis list has no finishedAt: it adds an undefined end, which latest() skips" },
  // src/engine/analysisSteps.ts
  { file: "src/engine/analysisSteps.ts", code: "for (const name of [...(spec?.afterMember ?? []), ...(stageUses(ctx, stage.name)?.afterMember ?? [])]) {", mutator: "ArrayDeclaration", reason: "a string in place of a missing list of names is a name no template has: it adds nothing" },
  { file: "src/engine/analysisSteps.ts", code: "if (template !== undefined && !out.some((t) => t.name === template.name)) out.push(template);", mutator: "ConditionalExpression", replacement: "true", reason: "every name the run's analysis uses is one of its templates: the inputs are refused otherwise (model/analysis.ts, 'no template named'), so templateNamed finds each" },
  { file: "src/engine/analysisSteps.ts", code: "return { ref: ctx.ref(member), ...(labels === undefined ? {} : { labels }) };", mutator: "ConditionalExpression", replacement: "false", reason: "labels: undefined and no labels are one to the query's templating (renderQuery reads labels?.[key])" },
  { file: "src/engine/analysisSteps.ts", code: "const pending: Array<Promise<void>> = [];", mutator: "ArrayDeclaration", reason: "a promise where every port answered at once only costs time (issue 13's answers at once): the same measurements, recorded in the same order" },
  { file: "src/engine/analysisSteps.ts", code: "if (pending.length > 0) return Promise.all(pending).then(() => undefined);", mutator: "ConditionalExpression", replacement: "true", reason: "as above: a promise of nothing, in place of answering at once" },
  { file: "src/engine/analysisSteps.ts", code: "if (pending.length > 0) return Promise.all(pending).then(() => undefined);", mutator: "EqualityOperator", replacement: "pending.length >= 0", reason: "as above" },
  { file: "src/engine/analysisSteps.ts", code: "const names = stageUses(ctx, stage.name)?.[kind] ?? [];", mutator: "ArrayDeclaration", reason: "a name no template has starts nothing; the stage's list of analyses left empty is shown as none (status.ts)" },
  { file: "src/engine/analysisSteps.ts", code: "const analyses = (stage.analysis ?? []).filter((a) => a.kind === kind);", mutator: "ArrayDeclaration", reason: "a string in place of a missing list has no kind: the filter drops it" },
  { file: "src/engine/analysisSteps.ts", code: "if (names.length === 0 && analyses.length === 0) return true;", mutator: "ConditionalExpression", replacement: "false", reason: "a shortcut: with no use and none under way the rest starts nothing, steps nothing and answers true" },
  { file: "src/engine/analysisSteps.ts", code: "if (missing.length > 0) {", mutator: "ConditionalExpression", replacement: "true", reason: "with none missing the branch starts nothing: it copies the stage's list to an equal one" },
  { file: "src/engine/analysisSteps.ts", code: "if (missing.length > 0) {", mutator: "EqualityOperator", replacement: "missing.length >= 0", reason: "as above" },
  { file: "src/engine/analysisSteps.ts", code: "const templates = missing.map((name) => templateNamed(ctx, name)).filter((t): t is AnalysisTemplate => t !== undefined);", mutator: "MethodExpression", reason: "every name the run's analysis uses is one of its templates: the inputs are refused otherwise (model/analysis.ts, 'no template named'), so templateNamed finds each" },
  { file: "src/engine/analysisSteps.ts", code: "const templates = missing.map((name) => templateNamed(ctx, name)).filter((t): t is AnalysisTemplate => t !== undefined);", mutator: "ConditionalExpression", replacement: "true", reason: "every name the run's analysis uses is one of its templates: the inputs are refused otherwise (model/analysis.ts, 'no template named'), so templateNamed finds each" },
  // src/engine/transitions.ts
  { file: "src/engine/transitions.ts", code: 'else if (to !== "Failed" && node.error !== undefined) node.error = undefined;', mutator: "ConditionalExpression", replacement: "true", reason: "(the test of node.error) clearing an error that is not there leaves error undefined, which every reader (status, journal JSON) takes as none" },
  { file: "src/engine/transitions.ts", code: "else if (node.completedTime !== undefined) node.completedTime = undefined;", mutator: "ConditionalExpression", replacement: "true", reason: "clearing a completedTime that is not there leaves it undefined, which every reader takes as none" },
  { file: "src/engine/transitions.ts", code: "if (message === undefined && pending.message !== undefined) this.buffer.set(node", mutator: "ConditionalExpression", replacement: "true", reason: "with neither message, the event made afresh has the same time, scope, name, from and to as the pending one updated in place" },
  { file: "src/engine/transitions.ts", code: "for (const event of events) if (kept(event)) this.sink?.(event);", mutator: "OptionalChaining", reason: "nothing is buffered without a sink (transition and emitNow return first), so flush never reaches the call then" },
  // src/engine/tally.ts
  { file: "src/engine/tally.ts", code: "for (const gate of [...(group.beforeGates ?? []), ...(group.afterGates ?? [])]) this.parents.set(gate, { kind: \"groupGate\", group, stage });", mutator: "ArrayDeclaration", reason: "a string in place of a missing gate list gets a parent no state change ever looks up (only items are looked up)" },
  { file: "src/engine/tally.ts", code: "if (to === \"NotStarted\") this.onCandidate?.(node as MemberRunState, parent.group);", mutator: "OptionalChaining", reason: "the engine's context sets onCandidate as it makes the tally (context.ts), before any state changes" },
  // src/engine/tolerance.ts
  ...["MethodExpression", "ArrowFunction"].map((mutator) => ({ file: "src/engine/tolerance.ts", code: "return stage.groups.some((g) => groupExceedsWith(g, groupFailures(g))) || stageOwnLimitExceededWith(stage, stageFailures);", mutator, reason: "the one caller (execute.ts failMember) tests the failing member's group first, and no other group of the stage is past its tolerance then: one that went past halted the run, and a start retries every Failed member of a group not Completed (control.ts startRun)" })),
  // src/engine/analysis.ts
  { file: "src/engine/analysis.ts", code: "const count = timing.count ?? (kind === \"soak\" && soakEndsAt !== undefined && soakEndsAt >= first ?", mutator: "ConditionalExpression", replacement: "true", reason: "(the test of soakEndsAt) with no wait's end, undefined >= first is false all the same" },
  { file: "src/engine/analysis.ts", code: "const count = timing.count ?? (kind === \"soak\" && soakEndsAt !== undefined && soakEndsAt >= first ?", mutator: "EqualityOperator", replacement: "soakEndsAt > first", reason: "a wait ending at the first measurement gives floor(0) + 1 = 1, the fallback's count" },
  { file: "src/engine/analysis.ts", code: "...(template.successCondition === undefined ? {} : { successCondition: template.successCondition }),", mutator: "ConditionalExpression", replacement: "false", reason: "an analysis's successCondition: undefined is left out of its status (renderAnalysis) and of the journal's JSON" },
  { file: "src/engine/analysis.ts", code: "...(template.failureCondition === undefined ? {} : { failureCondition: template.failureCondition }),", mutator: "ConditionalExpression", replacement: "false", reason: "as above, for failureCondition" },
  { file: "src/engine/analysis.ts", code: "for (const a of analyses ?? []) if (a.phase === \"Running\" && a.nextMeasurementAt !== undefined)", mutator: "ArrayDeclaration", reason: "a string in place of a missing list is not Running: it is passed over" },
  { file: "src/engine/analysis.ts", code: "for (const a of analyses ?? []) if (a.phase === \"Running\" && a.nextMeasurementAt !== undefined)", mutator: "ConditionalExpression", replacement: "true", reason: "(the test of nextMeasurementAt) a Running analysis always has its next measurement (startAnalysis, recordMeasurement)" },
  { file: "src/engine/analysis.ts", code: "(member === undefined ? {} : { member })", mutator: "ConditionalExpression", replacement: "false", reason: "a part's member: undefined is left out of the measurement by combine, which copies it only when set (on the line of fromAnswer's answer, also its value)" },
  { file: "src/engine/analysis.ts", code: "...(answer.status === undefined ? {} : { value: answer.status }),", mutator: "ConditionalExpression", replacement: "false", reason: "as above, for a probe's status as the part's value" },
  { file: "src/engine/analysis.ts", code: "...(m.labels === undefined ? {} : { labels: m.labels })", mutator: "ConditionalExpression", replacement: "false", reason: "labels: undefined and no labels are one to renderQuery (it reads labels?.[key])" },
  // src/model/run.ts
  { file: "src/model/run.ts", code: 'ctx.addIssue({ code: "custom", path: [issue.path], message: issue.message })', mutator: "StringLiteral", reason: "a refusal shows a field path and a message: an issue's code is read only to tell an unknown field" },
  { file: "src/model/run.ts", code: "if (m.group === undefined) continue;", mutator: "ConditionalExpression", replacement: "false", reason: "members without a group indexed under `undefined` are never looked up: a group's name is a string" },
  { file: "src/model/run.ts", code: "if (index === undefined) {", mutator: "ConditionalExpression", replacement: "true", reason: "a cache: the index of a label key built again is the same index" },
  { file: "src/model/run.ts", code: "if (value === undefined) continue;", mutator: "ConditionalExpression", replacement: "false", reason: "members without the label indexed under `undefined` are never looked up: the values asked for are strings" },
  { file: "src/model/run.ts", code: "if (set === undefined) pools.set(pool, (set = new Set(pool)));", mutator: "ConditionalExpression", replacement: "true", reason: "a cache: a stage's member set made again is the same set" },
  ...["ArrowFunction", "ConditionalExpression", "LogicalOperator", "StringLiteral"].map((mutator) => ({ file: "src/model/run.ts", code: 'const narrowing = selector.requirements.find((r) => r.op === "=" || r.op === "in");', mutator, reason: "narrowing on fewer of the `=` / `in` requirements (or none: a scan) only looks at more members, and each is still matched against the whole selector: the index only saves time (issue 22)" })),
  { file: "src/model/run.ts", code: "if (narrowing === undefined) return pool.filter((m) => matchesLabels(selector, m.labels));", mutator: "ConditionalExpression", replacement: "true", reason: "scanning every member with the whole selector finds what the index finds, in the members' order: the index only saves time" },
  { file: "src/model/run.ts", code: 'const values = narrowing.op === "=" ? [narrowing.value] : narrowing.op === "in" ? narrowing.values : [];', mutator: "ConditionalExpression", replacement: "true", reason: "the requirement found is `=` or `in` (the find above): the last branch is never taken" },
  { file: "src/model/run.ts", code: 'const values = narrowing.op === "=" ? [narrowing.value] : narrowing.op === "in" ? narrowing.values : [];', mutator: "ArrayDeclaration", reason: "the requirement found is `=` or `in` (the find above): the last branch is never taken" },
  { file: "src/model/run.ts", code: "let found = [...new Set(values)].flatMap((v) => index.get(v) ?? []);", mutator: "ArrayDeclaration", reason: "a text found in place of members holds no labels: the selector, which needs this label, matches it nowhere" },
  { file: "src/model/run.ts", code: "if (values.length > 1) found = found.sort(", mutator: "ConditionalExpression", replacement: "true", reason: "the members of one value are already in the members' order: sorting them changes nothing" },
  { file: "src/model/run.ts", code: "if (values.length > 1) found = found.sort(", mutator: "EqualityOperator", replacement: "values.length >= 1", reason: "the members of one value are already in the members' order: sorting them changes nothing" },
  { file: "src/model/run.ts", code: "const inPool = pool === members ? undefined : poolSet(pool);", mutator: "ConditionalExpression", replacement: "false", reason: "every member is in the run's members: the set only costs time" },
  { file: "src/model/run.ts", code: "} catch (e) {", mutator: "BlockStatement", reason: "parseLabelSelector throws only LabelSelectorError on a string (the schema made it one): passing any other error on is a safeguard against a bug" },
  { file: "src/model/run.ts", code: "if (!(e instanceof LabelSelectorError)) throw e;", mutator: "ConditionalExpression", replacement: "false", reason: "parseLabelSelector throws only LabelSelectorError on a string (the schema made it one): passing any other error on is a safeguard against a bug" },
  { file: "src/model/run.ts", code: "if (!selectors.has(text)) selectors.set(text, parsedOrNothing(text));", mutator: "ConditionalExpression", replacement: "true", reason: "a cache: a selector parsed again is the same selector" },
  // src/model/instants.ts
  { file: "src/model/instants.ts", code: "if (CALENDAR_DAYS.has(day)) return true;", mutator: "ConditionalExpression", replacement: "false", reason: "a cache: a day found real is found real again" },
  { file: "src/model/instants.ts", code: "if (instant === lastInstant) return lastIso;", mutator: "ConditionalExpression", replacement: "false", reason: "a cache: the last instant written again is the same text" },
  { file: "src/model/instants.ts", code: "if (day !== lastDay) {", mutator: "ConditionalExpression", replacement: "true", reason: "a cache: the day's text written again is the same text" },
  { file: "src/model/instants.ts", code: "if (!Number.isInteger(instant)) {", mutator: "ConditionalExpression", replacement: "true", reason: "toISOString writes every instant as the fast path does (test/model/isoInstant.test.ts's property): the fast path only saves time" },
  { file: "src/model/instants.ts", code: "const ISO_INSTANT = ", mutator: "Regex", reason: "an anchor less lets text around the instant pass the pattern, and Date.parse then refuses it (NaN): the message is the same" },
  { file: "src/model/instants.ts", code: ".refine((s) => /^\\d{4}-\\d{2}-\\d{2}$/.test(s)", mutator: "Regex", reason: "an anchor less lets text around the date pass the pattern, and Date.parse of it with a time then refuses it (NaN): the message is the same" },
  { file: "src/model/instants.ts", code: "s <= MAX_INSTANT.slice(0, 10)", mutator: "MethodExpression", reason: "a 10-character date is at most 2999-12-31 exactly when it is at most 2999-12-31T23:59:59Z (a prefix sorts first)" },
  // src/model/strategy.ts
  ...['message: "is required for a ScheduledStart gate"', 'message: "is taken by ScheduledStart gates only"', 'message: "a ScheduledStart gate holds a start: it is a before-gate only"', "message: `is not a label selector: ${e.message}`", "message: `duplicate stage name", "message: `group '${group.name}' is listed twice"].map((code) => ({ file: "src/model/strategy.ts", code, mutator: "StringLiteral", replacement: '""', reason: "a refusal shows a field path and a message: an issue's code is read only to tell an unknown field" })),
  { file: "src/model/strategy.ts", code: "if (!(e instanceof LabelSelectorError)) throw e;", mutator: "ConditionalExpression", replacement: "false", reason: "parseLabelSelector throws only LabelSelectorError on a string (zod made it one): passing any other error on is a safeguard against a bug" },
  { file: "src/model/strategy.ts", code: 'if (stage === null || typeof stage !== "object" || Array.isArray(stage)) return stage;', mutator: "ConditionalExpression", replacement: "false", reason: "a value that is not a mapping (other than null) has none of the fields read: it is returned as it is either way" },
  // src/model/textInput.ts
  { file: "src/model/textInput.ts", code: "} catch {", mutator: "BlockStatement", reason: "an empty catch returns undefined too" },
  { file: "src/model/textInput.ts", code: "for (let i = 0; i < value.length; i++) {", mutator: "EqualityOperator", replacement: "i <= value.length", reason: "one past a list's end is undefined, which nests nothing" },
  { file: "src/model/textInput.ts", code: "return doc.toJS({ maxAliasCount: 100 });", mutator: "ObjectLiteral", reason: "yaml's own default maxAliasCount is 100: the option states the limit the alias-bomb test holds" },
  { file: "src/model/textInput.ts", code: 'if (error.code === "RESOURCE_EXHAUSTION" && /call stack/i.test(error.message))', mutator: "LogicalOperator", reason: "yaml reports RESOURCE_EXHAUSTION only from its catch around composing a collection, which a stack overflow reaches (yaml 2.9 compose-node.js): either test alone tells an overflow" },
  { file: "src/model/textInput.ts", code: 'if (error.code === "RESOURCE_EXHAUSTION" && /call stack/i.test(error.message))', mutator: "ConditionalExpression", replacement: "true", reason: "only a stack overflow's message, which yaml reports as RESOURCE_EXHAUSTION, says 'call stack': either test alone tells an overflow" },
  { file: "src/model/run.ts", code: "const byGroup = inStage === members ? (allByGroup ??= groupIndex(members)) : groupIndex(inStage);", mutator: "ConditionalExpression", replacement: "false", reason: "a cache: the run's members indexed by group again give the same index" },
  // src/engine/describeRequest.ts: the memo of the last request's text; a mutant that only ever finds it stale makes the text again (the same text): it costs time, not behaviour
  { file: "src/engine/describeRequest.ts", code: "if (this.last !== undefined && sameRequest(this.last.request, request)) return this.last.text;", mutator: "ConditionalExpression", replacement: "false", reason: "never reusing the memo makes the same text again: a cache shortcut" },
  { file: "src/engine/describeRequest.ts", code: "function sameRequest(a: UpgradeRequest, b: UpgradeRequest): boolean {", mutator: "BlockStatement", reason: "answering undefined (not the same) only makes the text again" },
  { file: "src/engine/describeRequest.ts", code: "if (a.type !== b.type || a.kubernetesVersion !== b.kubernetesVersion) return false;", mutator: "ConditionalExpression", replacement: "true", reason: "answering not the same for every request only makes the text again" },
  { file: "src/engine/describeRequest.ts", code: "return poolsA.length === poolsB.length && poolsA.every(", mutator: "ConditionalExpression", replacement: "false", reason: "answering not the same (for some or all pools) only makes the text again" },
  { file: "src/engine/describeRequest.ts", code: "return poolsA.length === poolsB.length && poolsA.every(", mutator: "ArrowFunction", reason: "a pool never matching answers not the same: the text is made again" },
  // src/engine/autoUpgrade.ts
  { file: "src/engine/autoUpgrade.ts", code: "if (profile === undefined) return;", mutator: "ConditionalExpression", replacement: "false", reason: "never reached without a profile: execute.ts asks only while the run has no update, and a run without a profile has one from its start (the model refuses neither)" },
  { file: "src/engine/autoUpgrade.ts", code: "const answer = ctx.cluster(member, false);", mutator: "BooleanLiteral", reason: "the update is generated in the run's first acting pass, before any member's cluster is cached: a fresh read is the same read, kept the same way" },
  // src/engine/aggregate.ts: `started || c.total > 0` and `started` alone (or `&&`) differ only for a child list that is empty once started, or all done before its parent started: never, as every run has a stage and every stage a group (the model), an empty group counts as one Skipped child once it starts (refresh.ts), and no child completes before its parent starts
  { file: "src/engine/aggregate.ts", code: 'if (done === c.total && (started || c.total > 0)) return "Completed";', mutator: "ConditionalExpression", replacement: "false", reason: "as above: the right operand of || only matters for children done before their parent started" },
  { file: "src/engine/aggregate.ts", code: 'if (done === c.total && (started || c.total > 0)) return "Completed";', mutator: "LogicalOperator", replacement: "started && c.total > 0", reason: "as above: a started parent always has a child" },
  // src/engine/autoUpgradeChannel.ts
  { file: "src/engine/autoUpgradeChannel.ts", code: "for (const offered of offeredVersionsByRegion[region] ?? []) {", mutator: "ArrayDeclaration", reason: "a made-up entry for a region with no offer is not major.minor.patch, and is passed over as such" },
  { file: "src/engine/autoUpgradeChannel.ts", code: "const lts = (entry.supportPlan ?? []).includes(LONG_TERM_SUPPORT_PLAN);", mutator: "ArrayDeclaration", reason: "a made-up plan for a version with none is not AKSLongTermSupport either" },
  { file: "src/engine/autoUpgradeChannel.ts", code: "const outOfCommunitySupport = major < newest.major || (major === newest.major && minor < newest.minor - 2);", mutator: "ConditionalExpression", replacement: "true", reason: "`major === newest.major` as true: the chosen major is never newer than the newest offered, and an older one is out of support by the first test already" },
  // src/engine/backend.ts, control.ts: error names
  { file: "src/engine/backend.ts", code: 'this.name = "BackendError";', mutator: "StringLiteral", reason: "read by nothing: callers test `instanceof` and the code, and the CLI and the provider print the message (cli/main.ts)" },
  { file: "src/engine/control.ts", code: 'this.name = "SkipRefusedError";', mutator: "StringLiteral", reason: "read by nothing: callers test `instanceof` and print the message" },
  // src/engine/checks.ts
  { file: "src/engine/checks.ts", code: "const version = target === undefined || versionsPastTarget ? {} : { kubernetesVersion: target };", mutator: "ConditionalExpression", replacement: "false", reason: "`target === undefined` as false only gives a NodeImageOnly run's request `kubernetesVersion: undefined`, the same request (compared field by field, copied and persisted without undefined fields)" },
  { file: "src/engine/checks.ts", code: 'return { kind: "start", request: { type: requestType', mutator: "StringLiteral", replacement: '""', reason: "the decision's kind is read only as skip or pending (execute.ts); anything else starts" },
  { file: "src/engine/checks.ts", code: "...(op.expectedEndAt === undefined ? {} : { checkAgainAt: op.expectedEndAt }),", mutator: "ConditionalExpression", replacement: "false", reason: "a checkAgainAt of undefined is read as none (execute.ts: `decision.checkAgainAt ?? recheckUnknown`)" },
  // src/engine/context.ts
  { file: "src/engine/context.ts", code: "if (isCandidate(member)) queue.invalidate(member);", mutator: "ConditionalExpression", replacement: "true", reason: "a group's queue ranks only candidates (GroupQueue filters its stale members by isCandidate): the test only keeps the stale set small" },
  { file: "src/engine/context.ts", code: "if (isPending(answer)) return answer.then((info) => this.keepCluster(member, info));", mutator: "ConditionalExpression", replacement: "false", reason: "a pending answer kept in place of its value gives later reads the same value (they await a pending answer); a rejected one has failed its pass, and an engine whose pass threw is resumed anew from the journal (drivers/engine/session.ts), with an empty cache" },
  { file: "src/engine/context.ts", code: "if (isPending(answer)) return answer.then((offer) => this.keepOffer(region, offer));", mutator: "ConditionalExpression", replacement: "false", reason: "as for clusters; and offers are forgotten at every pass (execute.ts)" },
  // src/engine/control.ts
  { file: "src/engine/control.ts", code: "if ((member.error?.code === HEALTH_CHECK_FAILED || member.error?.code === ANALYSIS_FAILED) && member.request !== undefined)", mutator: "OptionalChaining", reason: "a Failed member always has its error (failMember writes both at once)" },
  { file: "src/engine/control.ts", code: "if ((member.error?.code === HEALTH_CHECK_FAILED || member.error?.code === ANALYSIS_FAILED) && member.request !== undefined)", mutator: "ConditionalExpression", replacement: "true", reason: "a member fails its health check or analysis only after its upgrade, whose request it keeps (only a retry or a refused start clears it, and neither ends in those codes)" },
  { file: "src/engine/control.ts", code: "member.message = `Retrying: the previous attempt failed${previous === undefined", mutator: "ConditionalExpression", replacement: "false", reason: "a Failed member always has its error (failMember writes both at once)" },
  { file: "src/engine/control.ts", code: 'startHalt(ctx, "stop", now);', mutator: "StringLiteral", reason: "a halt's reason is read only as `=== \"failure\"` (status.ts, halt.ts) or as set at all (execute.ts): any other text is a stop" },
  { file: "src/engine/control.ts", code: "function skipWait(stage: StageRunState, why: string, evenRunning = false): void {", mutator: "BooleanLiteral", reason: "a stage skip (the one caller without it) is refused while its wait runs (locate), so it never meets a Running wait" },
  { file: "src/engine/control.ts", code: 'if (!isFinished(member.state)) skipMember(member, "Skipped by user.");', mutator: "ConditionalExpression", replacement: "true", reason: "skipMember itself leaves every member that is not NotStarted or Pending as it is" },
  // src/engine/drive.ts
  { file: "src/engine/drive.ts", code: "if (engine.settled && nextAction === undefined) return;", mutator: "ConditionalExpression", replacement: "false", reason: "a settled engine (nothing in flight; not started, halted or done) has nothing scheduled (execute.ts wakeAt), so the next test returns at once" },
  { file: "src/engine/drive.ts", code: "if (options.returnWhenIdleFor !== undefined && !engine.busy && next - now > options.returnWhenIdleFor) return;", mutator: "ConditionalExpression", replacement: "true", reason: "without returnWhenIdleFor the last comparison is with undefined, false either way" },
  // src/engine/drift.ts
  { file: "src/engine/drift.ts", code: '.filter((m) => m.state === "Completed" && m.request !== undefined);', mutator: "ConditionalExpression", replacement: "true", reason: "a Completed member always has its request: written when its upgrade starts (or is adopted), cleared only by a retry or a refused start, neither of which ends Completed" },
  // src/engine/healthCheck.ts
  { file: "src/engine/healthCheck.ts", code: 'if (templates.length === 0) return { kind: "healthy" };', mutator: "ObjectLiteral", reason: "followUpgrade (execute.ts) reads a verdict only as later or unhealthy: any other is healthy" },
  { file: "src/engine/healthCheck.ts", code: 'if (templates.length === 0) return { kind: "healthy" };', mutator: "StringLiteral", reason: "followUpgrade (execute.ts) reads a verdict only as later or unhealthy: any other is healthy" },
  { file: "src/engine/healthCheck.ts", code: 'if (at === undefined) return { kind: "healthy" };', mutator: "ObjectLiteral", reason: "followUpgrade (execute.ts) reads a verdict only as later or unhealthy: any other is healthy" },
  { file: "src/engine/healthCheck.ts", code: 'if (at === undefined) return { kind: "healthy" };', mutator: "StringLiteral", reason: "followUpgrade (execute.ts) reads a verdict only as later or unhealthy: any other is healthy" },
  { file: "src/engine/healthCheck.ts", code: "if (isPending(stepped)) await stepped;", mutator: "ConditionalExpression", replacement: "true", reason: "awaiting what is not a promise gives nothing a microtask later, inside a pass awaited whole (answerAtOnce.test.ts: the same ends through promises and at once)" },
  { file: "src/engine/healthCheck.ts", code: "const probe = analyses.find((a) => a.template === HEALTH_CHECK_TEMPLATE);", mutator: "ConditionalExpression", replacement: "true", reason: "the first analysis of a member with a healthCheck is its health-check (memberTemplates), and the text below takes it only when it is the one analysis" },
  { file: "src/engine/healthCheck.ts", code: "if (check !== undefined && probe !== undefined && analyses.length === 1) {", mutator: "ConditionalExpression", replacement: "true", reason: "(the test of probe) a member with a healthCheck always has its health-check analysis: memberTemplates starts it with the others" },
  { file: "src/engine/healthCheck.ts", code: "const last = analyses.filter((a) => a.measurements.length > 0).sort(", mutator: "OptionalChaining", reason: "the filter keeps only analyses with a measurement: at(-1) is always one" },
  { file: "src/engine/healthCheck.ts", code: "const seen = last === undefined ? \"\" : ` Last: '${last.template}' ${last.measurements.at(-1)?.phase}", mutator: "OptionalChaining", reason: "the filter above keeps only analyses with a measurement: at(-1) is always one" },
  { file: "src/engine/healthCheck.ts", code: '(probe): ${failed.message ?? "no answer"}', mutator: "StringLiteral", replacement: '""', reason: "every measurement carries a message (analysis.ts: fromAnswer, combine, an error's), and an analysis measured keeps its last" },
  { file: "src/engine/healthCheck.ts", code: 'failed (${probe.message ?? "no answer"})', mutator: "StringLiteral", replacement: '""', reason: "every measurement carries a message (analysis.ts: fromAnswer, combine, an error's), and an analysis measured keeps its last" },
  { file: "src/engine/healthCheck.ts", code: '${last.message ?? ""}', mutator: "StringLiteral", replacement: '"Stryker was here!"', reason: "(the text of a message missing) every measurement carries a message (analysis.ts: fromAnswer, combine, an error's), and an analysis measured keeps its last" },
  // src/engine/halt.ts
  { file: "src/engine/halt.ts", code: 'if (run.control === "Halting") {', mutator: "BlockStatement", reason: "only a failure reaches a halt under way (a stop needs a running run: stopRun), so starting it again sets the same reason, finds no Pending member or gate to reset, and only marks every item dirty again" },
  // src/engine/interrupted.ts
  { file: "src/engine/interrupted.ts", code: "if (since === undefined || request === undefined) {", mutator: "ConditionalExpression", replacement: "false", reason: "(the test of since) every place in `interrupted` has its startRequestedAt: context.ts queues only those, and refused() queues a place whose intent it keeps" },
  // src/engine/clock.ts
  { file: "src/engine/clock.ts", code: "if (instant > this.current) this.current = instant;", mutator: "EqualityOperator", replacement: "instant >= this.current", reason: "setting the time to the instant it already is changes nothing" },
];

/** @type {import("@stryker-mutator/api/core").PartialStrykerOptions} */
export default {
  testRunner: "vitest",
  vitest: { configFile: "vitest.mutation.config.mts" },
  mutate: ["src/engine/**/*.ts", "src/model/**/*.ts", "src/simulation/scenario.ts", "src/simulation/chain.ts"],
  coverageAnalysis: "perTest",
  incremental: true,
  incrementalFile: "reports/stryker-incremental.json",
  // The machine has 2 cores, usually shared: one mutant at a time. `--concurrency 2` on a quiet machine.
  concurrency: 1,
  timeoutMS: 30_000,
  ignorers: ["equivalent"],
  plugins: ["@stryker-mutator/vitest-runner", "./mutation/equivalentIgnorer.mjs"],
  reporters: ["clear-text", "progress", "html", "json"],
  htmlReporter: { fileName: "reports/mutation/index.html" },
  jsonReporter: { fileName: "reports/mutation/mutation.json" },
  thresholds: { high: 95, low: 90, break: null },
  tempDirName: ".stryker-tmp",
  cleanTempDir: "always",
};
