/**
 * Where every `UpdateStrategy`'s stored provider stub (`program/providers.ts`, serialized into the state
 * as `__provider`) finds the provider: `pulumi-fleet-update/dist/pulumi/strategyProvider`. Stacks keep
 * that text from the version that wrote it and a destroy or refresh runs it, so this path stays; the
 * code lives in `provider/strategyProvider.ts`.
 */
export * from "./provider/strategyProvider";
