export { startClusterDns } from './dns-server.ts';
export type { ClusterDns, ClusterDnsOptions } from './dns-server.ts';
export { startEndpointsController, desiredSubsets } from './endpoints-controller.ts';
export type { EndpointsController } from './endpoints-controller.ts';
export { resolveClusterName } from './cluster-records.ts';
export type { Resolution, ClusterView } from './cluster-records.ts';
export { createClusterLookup, queryClusterDns, clusterFqdn } from './host-lookup.ts';
export type { DnsServerAddress } from './host-lookup.ts';
