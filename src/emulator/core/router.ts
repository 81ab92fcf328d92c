/**
 * Matching a request to a handler. Templates are ARM paths with `{name}` parameters; fixed segments
 * match case-insensitively, as ARM does (`resourceGroups` / `resourcegroups`).
 */
import type { Handler, Route } from "../ports";

export const CLUSTER_PATH = "/subscriptions/{subscriptionId}/resourceGroups/{resourceGroup}/providers/Microsoft.ContainerService/managedClusters/{cluster}";
export const LOCATION_PATH = "/subscriptions/{subscriptionId}/providers/Microsoft.ContainerService/locations/{location}";

export function route(method: string, template: string, handle: Handler): Route {
  const names: string[] = [];
  const source = template
    .split(/(\{[^}]+\})/)
    .map((part) => {
      const param = /^\{([^}]+)\}$/.exec(part);
      if (param?.[1] !== undefined) {
        names.push(param[1]);
        return "([^/]+)";
      }
      return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    })
    .join("");
  return { method, template, pattern: new RegExp(`^${source}/?$`, "i"), names, handle };
}

export type RouteMatch = { route: Route; params: Record<string, string> } | { methodNotAllowed: true } | undefined;

export function matchRoute(routes: Route[], method: string, path: string): RouteMatch {
  let pathMatched = false;
  for (const candidate of routes) {
    const m = candidate.pattern.exec(path);
    if (m === null) continue;
    if (candidate.method !== method) {
      pathMatched = true;
      continue;
    }
    const params: Record<string, string> = {};
    candidate.names.forEach((name, i) => (params[name] = decodeURIComponent(m[i + 1] ?? "")));
    return { route: candidate, params };
  }
  return pathMatched ? { methodNotAllowed: true } : undefined;
}
