/**
 * The dynamic providers as Pulumi serializes them into state (`__provider`). Each is a tiny stub
 * that loads the compiled implementation when called, so the serialized text is a few hundred bytes,
 * identical for every resource of a type, and unchanged by edits to the implementation. Nothing from
 * this module's scope may be captured: every method names its module by string. The paths they name
 * (`dist/pulumi/runProvider`, `dist/pulumi/strategyProvider`) are kept for the stacks that store them
 * (`src/pulumi/runProvider.ts`).
 */
import type * as pulumi from "@pulumi/pulumi";

export const updateRunProvider: pulumi.dynamic.ResourceProvider = {
  check: (olds, news) => require("pulumi-fleet-update/dist/pulumi/runProvider").check(olds, news),
  diff: (id, olds, news) => require("pulumi-fleet-update/dist/pulumi/runProvider").diff(id, olds, news),
  create: (inputs) => require("pulumi-fleet-update/dist/pulumi/runProvider").create(inputs),
  update: (id, olds, news) => require("pulumi-fleet-update/dist/pulumi/runProvider").update(id, olds, news),
  read: (id, props) => require("pulumi-fleet-update/dist/pulumi/runProvider").read(id, props),
  delete: (id, props) => require("pulumi-fleet-update/dist/pulumi/runProvider").remove(id, props),
};

export const updateStrategyProvider: pulumi.dynamic.ResourceProvider = {
  check: (olds, news) => require("pulumi-fleet-update/dist/pulumi/strategyProvider").check(olds, news),
  diff: (id, olds, news) => require("pulumi-fleet-update/dist/pulumi/strategyProvider").diff(id, olds, news),
  create: (inputs) => require("pulumi-fleet-update/dist/pulumi/strategyProvider").create(inputs),
  update: (id, olds, news) => require("pulumi-fleet-update/dist/pulumi/strategyProvider").update(id, olds, news),
  read: (id, props) => require("pulumi-fleet-update/dist/pulumi/strategyProvider").read(id, props),
  delete: (id, props) => require("pulumi-fleet-update/dist/pulumi/strategyProvider").remove(id, props),
};
