// Staged, maintenance-window-aware upgrades of AKS fleets: UpdateStrategy and UpdateRun, on a simulated fleet, real AKS through ARM, or Azure Kubernetes Fleet Manager.
package fleetupdate
