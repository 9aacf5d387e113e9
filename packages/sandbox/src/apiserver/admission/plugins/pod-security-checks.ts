// The Pod Security Standards checks (baseline and restricted) as the PodSecurity admission plugin of
// kube-apiserver 1.32 words them: each failing check gives a reason and a detail, and the plugin joins them in
// order (baseline's checks, then restricted's, each by check ID) as `reason (detail), reason (detail)`. A check applies from the policy version it appeared in.
type Obj = Record<string, unknown>;
const o = (v: unknown): Obj => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Obj) : {});
const arr = (v: unknown): Obj[] => (Array.isArray(v) ? (v as Obj[]) : []);

export type Level = 'privileged' | 'baseline' | 'restricted';

export interface Violation {
  reason: string;
  detail: string;
}

interface Check {
  id: string;
  level: Exclude<Level, 'privileged'>;
  /** The first policy minor version (1.x) the check belongs to. */
  since: number;
  /** Checks of the baseline level a restricted check replaces. */
  overrides?: string[];
  run(meta: Obj, spec: Obj): Violation | undefined;
}

const joinQuote = (items: string[]): string => (items.length === 0 ? '' : `"${items.join('", "')}"`);
const plural = (one: string, many: string, n: number): string => (n === 1 ? one : many);
const containersOf = (spec: Obj): Obj[] => [...arr(spec.initContainers), ...arr(spec.containers), ...arr(spec.ephemeralContainers)];
const sc = (c: Obj): Obj => o(c.securityContext);
const named = (kind: string, names: string[]): string => `${plural(kind, `${kind}s`, names.length)} ${joinQuote(names)}`;
const unique = (items: string[]): string[] => [...new Set(items)].sort();

const baselineCapabilities = new Set(['AUDIT_WRITE', 'CHOWN', 'DAC_OVERRIDE', 'FOWNER', 'FSETID', 'KILL', 'MKNOD', 'NET_BIND_SERVICE', 'SETFCAP', 'SETGID', 'SETPCAP', 'SETUID', 'SYS_CHROOT']);
const restrictedVolumeTypes = new Set(['configMap', 'csi', 'downwardAPI', 'emptyDir', 'ephemeral', 'persistentVolumeClaim', 'projected', 'secret']);
const safeSysctls = new Set(['kernel.shm_rmid_forced', 'net.ipv4.ip_local_port_range', 'net.ipv4.ip_unprivileged_port_start', 'net.ipv4.tcp_syncookies', 'net.ipv4.ping_group_range', 'net.ipv4.ip_local_reserved_ports', 'net.ipv4.tcp_keepalive_time', 'net.ipv4.tcp_fin_timeout', 'net.ipv4.tcp_keepalive_intvl', 'net.ipv4.tcp_keepalive_probes']);
const validSeccomp = (type: unknown): boolean => type === 'RuntimeDefault' || type === 'Localhost';

/** "pod or containers ..." checks where a pod-level value covers containers that leave it unset. */
function podOrContainer(spec: Obj, field: 'runAsNonRoot' | 'seccompProfile', good: (v: unknown) => boolean): { badSetters: string[]; badValues: string[]; implicit: string[] } {
  const badSetters: string[] = [];
  const badValues: string[] = [];
  const podValue = o(spec.securityContext)[field];
  let podSet = false;
  if (podValue !== undefined && podValue !== null) {
    if (good(podValue)) podSet = true;
    else {
      badSetters.push('pod');
      badValues.push(String(o(podValue).type ?? podValue));
    }
  }
  const explicit: string[] = [];
  const implicit: string[] = [];
  for (const c of containersOf(spec)) {
    const v = sc(c)[field];
    if (v !== undefined && v !== null) {
      if (!good(v)) {
        explicit.push(String(c.name));
        badValues.push(String(o(v).type ?? v));
      }
    } else if (!podSet) implicit.push(String(c.name));
  }
  if (explicit.length > 0) badSetters.push(named('container', explicit));
  return { badSetters, badValues, implicit };
}

const checks: Check[] = [
  {
    id: 'allowPrivilegeEscalation',
    level: 'restricted',
    since: 8,
    run: (_m, spec) => {
      const bad = containersOf(spec).filter((c) => sc(c).allowPrivilegeEscalation !== false).map((c) => String(c.name));
      return bad.length === 0 ? undefined : { reason: 'allowPrivilegeEscalation != false', detail: `${named('container', bad)} must set securityContext.allowPrivilegeEscalation=false` };
    },
  },
  {
    id: 'capabilities_baseline',
    level: 'baseline',
    since: 0,
    run: (_m, spec) => {
      const names: string[] = [];
      const caps: string[] = [];
      for (const c of containersOf(spec)) {
        const added = ((o(sc(c).capabilities).add as string[] | undefined) ?? []).filter((cap) => !baselineCapabilities.has(cap));
        if (added.length > 0) {
          names.push(String(c.name));
          caps.push(...added);
        }
      }
      return names.length === 0 ? undefined : { reason: 'non-default capabilities', detail: `${named('container', names)} must not include ${joinQuote(unique(caps))} in securityContext.capabilities.add` };
    },
  },
  {
    id: 'capabilities_restricted',
    level: 'restricted',
    since: 22,
    overrides: ['capabilities_baseline'],
    run: (_m, spec) => {
      const missingDrop: string[] = [];
      const adding: string[] = [];
      const forbidden: string[] = [];
      for (const c of containersOf(spec)) {
        const caps = sc(c).capabilities;
        if (caps === undefined || caps === null) {
          missingDrop.push(String(c.name));
          continue;
        }
        if (!((o(caps).drop as string[] | undefined) ?? []).includes('ALL')) missingDrop.push(String(c.name));
        const bad = ((o(caps).add as string[] | undefined) ?? []).filter((cap) => cap !== 'NET_BIND_SERVICE');
        if (bad.length > 0) {
          adding.push(String(c.name));
          forbidden.push(...bad);
        }
      }
      const details: string[] = [];
      if (missingDrop.length > 0) details.push(`${named('container', missingDrop)} must set securityContext.capabilities.drop=["ALL"]`);
      if (adding.length > 0) details.push(`${named('container', adding)} must not include ${joinQuote(unique(forbidden))} in securityContext.capabilities.add`);
      return details.length === 0 ? undefined : { reason: 'unrestricted capabilities', detail: details.join('; ') };
    },
  },
  {
    id: 'hostNamespaces',
    level: 'baseline',
    since: 0,
    run: (_m, spec) => {
      const set = (['hostNetwork', 'hostPID', 'hostIPC'] as const).filter((f) => spec[f] === true).map((f) => `${f}=true`);
      return set.length === 0 ? undefined : { reason: 'host namespaces', detail: set.join(', ') };
    },
  },
  {
    id: 'hostPathVolumes',
    level: 'baseline',
    since: 0,
    run: (_m, spec) => {
      const names = arr(spec.volumes).filter((v) => v.hostPath !== undefined).map((v) => String(v.name));
      return names.length === 0 ? undefined : { reason: 'hostPath volumes', detail: named('volume', names) };
    },
  },
  {
    id: 'hostPorts',
    level: 'baseline',
    since: 0,
    run: (_m, spec) => {
      const names: string[] = [];
      const ports: string[] = [];
      for (const c of containersOf(spec)) {
        const used = arr(c.ports).map((p) => p.hostPort).filter((p) => typeof p === 'number' && p !== 0).map(String);
        if (used.length > 0) {
          names.push(String(c.name));
          ports.push(...used);
        }
      }
      if (names.length === 0) return undefined;
      const list = unique(ports); // a Go string set: sorted as text
      return { reason: 'hostPort', detail: `${named('container', names)} ${plural('uses', 'use', names.length)} ${plural('hostPort', 'hostPorts', list.length)} ${list.join(', ')}` };
    },
  },
  {
    id: 'privileged',
    level: 'baseline',
    since: 0,
    run: (_m, spec) => {
      const names = containersOf(spec).filter((c) => sc(c).privileged === true).map((c) => String(c.name));
      return names.length === 0 ? undefined : { reason: 'privileged', detail: `${named('container', names)} must not set securityContext.privileged=true` };
    },
  },
  {
    id: 'procMount',
    level: 'baseline',
    since: 0,
    run: (_m, spec) => {
      const bad = containersOf(spec).filter((c) => sc(c).procMount !== undefined && sc(c).procMount !== 'Default');
      if (bad.length === 0) return undefined;
      return { reason: 'procMount', detail: `${named('container', bad.map((c) => String(c.name)))} must not set securityContext.procMount to ${joinQuote(unique(bad.map((c) => String(sc(c).procMount))))}` };
    },
  },
  {
    id: 'restrictedVolumes',
    level: 'restricted',
    since: 0,
    overrides: ['hostPathVolumes'],
    run: (_m, spec) => {
      const names: string[] = [];
      const types: string[] = [];
      for (const v of arr(spec.volumes)) {
        const kinds = Object.keys(v).filter((k) => k !== 'name' && !restrictedVolumeTypes.has(k));
        if (kinds.length > 0) {
          names.push(String(v.name));
          types.push(...kinds);
        }
      }
      if (names.length === 0) return undefined;
      const list = unique(types);
      return { reason: 'restricted volume types', detail: `${named('volume', names)} ${plural('uses', 'use', names.length)} ${plural('restricted volume type', 'restricted volume types', list.length)} ${joinQuote(list)}` };
    },
  },
  {
    id: 'runAsNonRoot',
    level: 'restricted',
    since: 0,
    run: (_m, spec) => {
      const { badSetters, implicit } = podOrContainer(spec, 'runAsNonRoot', (v) => v === true);
      if (badSetters.length > 0) return { reason: 'runAsNonRoot != true', detail: `${badSetters.join(' and ')} must not set securityContext.runAsNonRoot=false` };
      if (implicit.length > 0) return { reason: 'runAsNonRoot != true', detail: `pod or ${named('container', implicit)} must set securityContext.runAsNonRoot=true` };
      return undefined;
    },
  },
  {
    id: 'runAsUser',
    level: 'restricted',
    since: 23,
    run: (_m, spec) => {
      const setters: string[] = [];
      if (o(spec.securityContext).runAsUser === 0) setters.push('pod');
      const names = containersOf(spec).filter((c) => sc(c).runAsUser === 0).map((c) => String(c.name));
      if (names.length > 0) setters.push(named('container', names));
      return setters.length === 0 ? undefined : { reason: 'runAsUser=0', detail: `${setters.join(' and ')} must not set runAsUser=0` };
    },
  },
  {
    id: 'seccompProfile_baseline',
    level: 'baseline',
    since: 19,
    run: (_m, spec) => {
      const setters: string[] = [];
      if (o(o(spec.securityContext).seccompProfile).type === 'Unconfined') setters.push('pod');
      const names = containersOf(spec).filter((c) => o(sc(c).seccompProfile).type === 'Unconfined').map((c) => String(c.name));
      if (names.length > 0) setters.push(named('container', names));
      return setters.length === 0 ? undefined : { reason: 'seccompProfile', detail: `${setters.join(' and ')} must not set securityContext.seccompProfile.type to "Unconfined"` };
    },
  },
  {
    id: 'seccompProfile_restricted',
    level: 'restricted',
    since: 19,
    overrides: ['seccompProfile_baseline'],
    run: (_m, spec) => {
      const { badSetters, badValues, implicit } = podOrContainer(spec, 'seccompProfile', (v) => validSeccomp(o(v).type));
      if (badSetters.length > 0) return { reason: 'seccompProfile', detail: `${badSetters.join(' and ')} must not set securityContext.seccompProfile.type to ${joinQuote(unique(badValues))}` };
      if (implicit.length > 0) return { reason: 'seccompProfile', detail: `pod or ${named('container', implicit)} must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost"` };
      return undefined;
    },
  },
  {
    id: 'sysctls',
    level: 'baseline',
    since: 0,
    run: (_m, spec) => {
      const bad = arr(o(spec.securityContext).sysctls).map((s) => String(s.name)).filter((n) => !safeSysctls.has(n));
      return bad.length === 0 ? undefined : { reason: 'forbidden sysctls', detail: bad.join(', ') };
    },
  },
];

/** The violations of a pod spec at a level and policy version (minor of 1.x; Infinity for latest), in check-ID order. */
export function podViolations(level: Level, minor: number, meta: Obj, spec: Obj): Violation[] {
  if (level === 'privileged') return [];
  const active = checks.filter((c) => c.since <= minor && (c.level === 'baseline' || level === 'restricted'));
  const overridden = new Set(active.flatMap((c) => c.overrides ?? []));
  return active
    .filter((c) => !overridden.has(c.id))
    // kube-apiserver lists the baseline level's checks first, then restricted's, each in check-ID order.
    .sort((a, b) => (a.level !== b.level ? (a.level === 'baseline' ? -1 : 1) : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((c) => c.run(meta, spec))
    .filter((v): v is Violation => v !== undefined);
}
