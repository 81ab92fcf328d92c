/**
 * The engine driver on real AKS clusters through ARM (`backend.azure`): the Azure backend, ARM's clock
 * as its answers tell it (`ServerClock`, issue 30: the run's instants on the clock its members' times
 * come from), and the run's journal under `.fleet-update/runs/`. Loaded only for a run on Azure, so
 * `simulate` and `plan` of a scenario start without the Azure SDKs (issue 13).
 */
import fs from "node:fs";
import path from "node:path";
import { AzureBackend } from "../../backends/azure/azureBackend";
import { credentialFor } from "../../backends/azure/credentials";
import { ServerClock } from "../../runtime/serverClock";
import type { AzureBackendConfig } from "../../spec/runSpec";
import { RunJournal } from "./journal";
import { acquireJournalLease } from "./journalLease";
import type { BackendOpener } from "./openBackend";
import { readOnlyAzureBackend } from "../clusterReader";
import { JOURNAL_DIRECTORY } from "../runRecords";

export function azureOpener(settings: AzureBackendConfig, baseDir: string): BackendOpener {
  const journal = (runName: string): RunJournal => RunJournal.in(path.resolve(baseDir, JOURNAL_DIRECTORY), runName);
  return {
    plansLocally: false,
    journal,
    planView: (inputs) => ({ reads: "clusters", inputs, backend: readOnlyAzureBackend(settings, baseDir, inputs.managedClusterUpdate, "backend.azure") }),
    open: (runName, customNodeImageVersions) => {
      const clock = new ServerClock();
      const backend = new AzureBackend({
        credential: credentialFor(settings.credential),
        clock,
        armClock: clock,
        customNodeImageVersions,
        ...(settings.endpoint === undefined ? {} : { endpoint: settings.endpoint }),
        ...(settings.trustedCaFile === undefined ? {} : { trustedCaPem: fs.readFileSync(path.resolve(baseDir, settings.trustedCaFile), "utf8") }),
        ...(settings.pollIntervalSeconds === undefined ? {} : { initialPollMs: settings.pollIntervalSeconds.initial * 1000, steadyPollMs: settings.pollIntervalSeconds.steady * 1000 }),
      });
      const runJournal = journal(runName);
      // Issue 11: one driver per run, held until this process ends (journalLease.ts).
      const releaseJournalLease = acquireJournalLease(runJournal, runName);
      return {
        backend,
        clock,
        journal: runJournal,
        releaseJournalLease,
        release: releaseJournalLease,
        deadline: (realMs) => realMs,
        realMsUntil: (instant) => clock.realMsUntil(instant),
        // ARM's clock is learned from its answers: one before the first pass, so the run's first instants are on it.
        syncClock: (member) => backend.syncClock(member),
        recheckUnknownAfterMs: 15 * 60_000,
      };
    },
  };
}
