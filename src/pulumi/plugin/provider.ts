/**
 * Issue 24: the provider plugin `pulumi-resource-fleet-update`, serving `fleet-update:index:UpdateRun`
 * and `fleet-update:index:UpdateStrategy` to programs in any Pulumi language. It is an adapter over the
 * very functions the dynamic resources' stubs call (`runProvider.ts`, `strategyProvider.ts`): what
 * differs is only what a real provider gets that a dynamic one does not —
 * - the resource's name comes in the URN (the dynamic resources pass it as `runName`/`strategyName`);
 * - values arrive with their secret marks, and results keep them (`secrets.ts`);
 * - `cancel` (the engine's Cancel on the first Ctrl-C) stops the runs being driven at the next
 *   checkpoint (`runSession.ts` `SessionOptions.stop`).
 * Interface: `@pulumi/pulumi/provider`'s `Provider` (served by its `main`, `main.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Provider } from "@pulumi/pulumi/provider";
import { StopRequest } from "../../drivers/stopRequest";
import { RunNotFinishedError } from "../provider/runOutputs";
import { tellOnStderr, type SessionOptions, type Tell } from "../provider/runSession";
import { EngineLog } from "./engineLog";
import * as runProvider from "../provider/runProvider";
import * as strategyProvider from "../provider/strategyProvider";
import { PROJECT_DIR_KEY } from "../surface";
import { UPDATE_RUN_SECRET_OUTPUTS } from "../surface";
import { revealProps, withSecretsOf } from "./secrets";
import { importRun } from "../provider/importRun";

export const PACKAGE_NAME = "fleet-update";
export const UPDATE_RUN_TYPE = `${PACKAGE_NAME}:index:UpdateRun`;
export const UPDATE_STRATEGY_TYPE = `${PACKAGE_NAME}:index:UpdateStrategy`;

type Props = Record<string, unknown>;

/** A resource URN's type (the last of its parent-qualified types) and name. */
export function parseUrn(urn: string): { type: string; name: string } {
  const parts = urn.split("::");
  if (parts.length < 4) throw new Error(`not a resource URN: ${urn}`);
  return { type: parts[2]!.split("$").pop()!, name: parts.slice(3).join("::") };
}

function resourceOf(urn: string): { kind: "run" | "strategy"; name: string } {
  const { type, name } = parseUrn(urn);
  if (type === UPDATE_RUN_TYPE) return { kind: "run", name };
  if (type === UPDATE_STRATEGY_TYPE) return { kind: "strategy", name };
  throw new Error(`unknown resource type ${type}: the ${PACKAGE_NAME} provider serves ${UPDATE_RUN_TYPE} and ${UPDATE_STRATEGY_TYPE}`);
}

/**
 * What the dynamic resources' constructors add to the user's inputs (`updateRun.ts`,
 * `updateStrategy.ts`), added here from the URN and the plugin's working directory: the engine starts
 * a plugin in the program's folder, which for a program without `main` is the project's (the one
 * holding Pulumi.yaml), where the run's relative paths start.
 */
function withResourceFields(kind: "run" | "strategy", name: string, news: Props): Props {
  if (kind === "run") return { ...news, runName: news.runName ?? name, [PROJECT_DIR_KEY]: news[PROJECT_DIR_KEY] ?? process.cwd() };
  return news.backend === undefined ? news : { ...news, strategyName: news.strategyName ?? name };
}

/** The engine's Cancel, shared by every call of this process: the engine sends it once, at shutdown. */
export interface Cancellation {
  readonly stop: StopRequest;
}

export interface FleetUpdateProviderOptions {
  version: string;
  /** The package schema (JSON), from `schema.ts`. */
  schema: string;
  /** The engine's address (the plugin's first argument): its Log service shows our lines; it is watched while a run is driven. */
  engineAddress?: string;
}

export function fleetUpdateProvider(options: FleetUpdateProviderOptions): Provider & Cancellation {
  const stop = new StopRequest();
  const log = options.engineAddress === undefined ? undefined : new EngineLog(options.engineAddress);
  const tell = (urn: string): Tell => log?.about(urn) ?? tellOnStderr;
  const session = (urn: string): SessionOptions => ({ stop, tell: tell(urn), ...(options.engineAddress === undefined ? {} : { engineAddress: options.engineAddress }) });
  const secretOutputs = (kind: "run" | "strategy"): readonly string[] => (kind === "run" ? UPDATE_RUN_SECRET_OUTPUTS : []);

  return {
    version: options.version,
    schema: options.schema,
    stop,

    async check(urn: pulumi.URN, olds: Props, news: Props) {
      const { kind, name } = resourceOf(urn);
      const given = withResourceFields(kind, name, news);
      // Inputs an import read back (importRun.ts) leave out what the URN and the folder give, as a program does.
      const before = Object.keys(olds).length === 0 ? olds : withResourceFields(kind, name, olds);
      const result = kind === "run" ? await runProvider.check(revealProps(before), revealProps(given), tell(urn)) : await strategyProvider.check(revealProps(before), revealProps(given));
      return { inputs: withSecretsOf(given, result.inputs), failures: result.failures };
    },

    async diff(id: pulumi.ID, urn: pulumi.URN, olds: Props, news: Props) {
      const { kind } = resourceOf(urn);
      const provider = kind === "run" ? runProvider : strategyProvider;
      return provider.diff(id, revealProps(olds), revealProps(news));
    },

    async create(urn: pulumi.URN, inputs: Props) {
      const { kind } = resourceOf(urn);
      if (kind === "strategy") {
        const { id, outs } = await strategyProvider.create(revealProps(inputs));
        return { id, outs: withSecretsOf(inputs, outs) };
      }
      try {
        const { id, outs } = await runProvider.create(revealProps(inputs), session(urn));
        return { id, outs: withSecretsOf(inputs, outs, secretOutputs(kind)) };
      } catch (e) {
        throw keptWithSecrets(e, inputs, secretOutputs(kind));
      }
    },

    async update(id: pulumi.ID, urn: pulumi.URN, olds: Props, news: Props) {
      const { kind } = resourceOf(urn);
      if (kind === "strategy") {
        const { outs } = await strategyProvider.update(id, revealProps(olds), revealProps(news));
        return { outs: withSecretsOf(news, outs) };
      }
      try {
        const { outs } = await runProvider.update(id, revealProps(olds), revealProps(news), session(urn));
        return { outs: withSecretsOf(news, outs, secretOutputs(kind)) };
      } catch (e) {
        throw keptWithSecrets(e, news, secretOutputs(kind));
      }
    },

    /**
     * `pulumi refresh` (the stored properties), or `pulumi import` (the id alone: the run is adopted
     * from its journal or from Fleet Manager, `importRun.ts`, and its inputs are returned for Pulumi to store).
     */
    async read(id: pulumi.ID, urn: pulumi.URN, props?: Props) {
      const { kind, name } = resourceOf(urn);
      if (kind === "run" && Object.keys(props ?? {}).length === 0) {
        const imported = await importRun(id, name, process.cwd(), tell(urn));
        return { id: imported.id, inputs: imported.inputs, props: withSecretsOf(undefined, imported.props, secretOutputs(kind)) };
      }
      const result = kind === "run" ? await runProvider.read(id, revealProps(props), tell(urn)) : await strategyProvider.read(id, revealProps(props));
      return { id: result.id, props: withSecretsOf(props, result.props, secretOutputs(kind)) };
    },

    async delete(id: pulumi.ID, urn: pulumi.URN, props: Props) {
      const { kind } = resourceOf(urn);
      if (kind === "run") await runProvider.remove(id, revealProps(props));
      else await strategyProvider.remove(id, revealProps(props));
    },

    /**
     * The engine's Cancel (`pulumi up` got its first Ctrl-C, or is shutting down): a run being driven
     * stops at its next checkpoint (engine driver: nothing new starts, upgrades in flight are followed
     * to their end; Fleet Manager: following ends, the run goes on there) and its call fails with the
     * partial status, which the engine keeps (`runSession.ts` `cancelledReason`).
     */
    async cancel() {
      stop.request();
    },
  };
}

/**
 * A run kept with its partial status (`RunNotFinishedError`: Pulumi's ErrorResourceInitFailed, which
 * the plugin host builds from `id`, `properties` and `reasons`), with the secret marks the properties
 * must keep in the state.
 */
function keptWithSecrets(e: unknown, given: Props, alwaysSecret: readonly string[]): unknown {
  if (!(e instanceof RunNotFinishedError)) return e;
  const kept = withSecretsOf(given, e.properties, alwaysSecret);
  for (const key of Object.keys(e.properties)) delete e.properties[key];
  Object.assign(e.properties, kept);
  return e;
}
