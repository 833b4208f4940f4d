// CPU groups for the benchmarks that give each process its own share of the machine, as a deployment would:
// Linux cgroups v1, whose `cpu` hierarchy holds the quota (cpu.cfs_quota_us per cpu.cfs_period_us) and whose
// `cpuacct` hierarchy counts the CPU the group's processes used (cpuacct.usage, nanoseconds). A process joins
// both through their cgroup.procs, and its children stay in them. Needs root.
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const CPU = '/sys/fs/cgroup/cpu';
const CPUACCT = '/sys/fs/cgroup/cpuacct';

/** Whether this machine has the cgroups v1 hierarchies the groups are made in, and may write them. */
export function cpuGroupsAvailable() {
  return (
    existsSync(path.join(CPU, 'cpu.cfs_quota_us')) &&
    existsSync(path.join(CPUACCT, 'cpuacct.usage')) &&
    process.getuid?.() === 0
  );
}

/**
 * A group of `cores` CPU (0.25 = a quarter of one core) over a short period, so that throttling stalls a
 * process for at most a few milliseconds: `launch` wraps a command so that it starts inside the group,
 * `usageNs` reads the CPU its processes used, `remove` deletes it once they have ended.
 */
export function cpuGroup(name, cores, periodUs = 10_000) {
  const folders = [path.join(CPU, name), path.join(CPUACCT, name)];
  for (const folder of folders) mkdirSync(folder, { recursive: true });
  writeFileSync(path.join(folders[0], 'cpu.cfs_period_us'), String(periodUs));
  writeFileSync(path.join(folders[0], 'cpu.cfs_quota_us'), String(Math.round(cores * periodUs)));
  const procs = folders.map((folder) => path.join(folder, 'cgroup.procs'));
  return {
    name,
    cores,
    /** [command, args] that join the group (both hierarchies) and then become `command args…`. */
    launch(command, args) {
      return [
        '/bin/sh',
        ['-c', 'echo $$ > "$1"; echo $$ > "$2"; shift 2; exec "$@"', 'sh', ...procs, command, ...args],
      ];
    },
    usageNs() {
      return Number(readFileSync(path.join(folders[1], 'cpuacct.usage'), 'utf8'));
    },
    /** The processes still in the group (by the cpuacct hierarchy). */
    pids() {
      return readFileSync(procs[1], 'utf8').split('\n').filter(Boolean).map(Number);
    },
    remove() {
      for (const folder of folders) if (existsSync(folder)) rmdirSync(folder);
    },
  };
}
