// Whole-process measurement: wall time and peak resident memory of a command and every process it starts.
//
// Peak RSS is the largest of three readings, so no reading can flatter a tool:
//  1. GNU `/usr/bin/time -f %M` (when present): the kernel's exact high-water mark of the largest single
//     process in the tree (wait4's ru_maxrss covers waited-for descendants too).
//  2. The largest VmHWM (kernel high-water mark) of any process in the tree, read from /proc while it runs.
//  3. The largest sum of VmRSS over all processes of the tree at one moment, sampled every 100 ms, which
//     catches tools that split their work over several processes at once.
// Wall time is measured here, from spawn to exit, with performance.now().
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';

const GNU_TIME = '/usr/bin/time';
const SAMPLE_MS = 100;

export const hasGnuTime = existsSync(GNU_TIME);

function readStatus(pid) {
  try {
    const text = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (key) => {
      const m = text.match(new RegExp(`^${key}:\\s+(\\d+) kB`, 'm'));
      return m ? Number(m[1]) : 0;
    };
    return { rssKb: kb('VmRSS'), hwmKb: kb('VmHWM') };
  } catch {
    return undefined; // exited between listing and reading
  }
}

/** All live descendants of `root` (not `root` itself), from the parent ids in /proc/N/stat. */
function descendants(root) {
  const parentOf = new Map();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      // The command name may contain spaces and parentheses; fields resume after the last ')'.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      parentOf.set(Number(name), Number(fields[1]));
    } catch {
      // exited meanwhile
    }
  }
  const children = new Map();
  for (const [pid, ppid] of parentOf) {
    if (!children.has(ppid)) children.set(ppid, []);
    children.get(ppid).push(pid);
  }
  const out = [];
  const stack = [...(children.get(root) ?? [])];
  while (stack.length > 0) {
    const pid = stack.pop();
    out.push(pid);
    stack.push(...(children.get(pid) ?? []));
  }
  return out;
}

function killTree(pid) {
  try {
    process.kill(-pid, 'SIGKILL'); // the child leads its own process group (detached)
  } catch {
    // already gone
  }
}

/**
 * Runs `cmd args` to completion (or until `timeoutMs`, when the whole process group is killed).
 * Returns { wallS, peakRssMb, exitCode, signal, timedOut, stdout, stderr, processes, rss: {...} }.
 */
export function measureProcess(
  cmd,
  args,
  { env = process.env, cwd = process.cwd(), timeoutMs = 120_000 } = {},
) {
  return new Promise((resolve) => {
    const wrapped = hasGnuTime ? [GNU_TIME, ['-f', '__BENCH_TIME__ %e %M', cmd, ...args]] : [cmd, args];
    const started = performance.now();
    const child = spawn(wrapped[0], wrapped[1], {
      env,
      cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => {
      stderr += d;
    });
    const seen = new Set();
    let peakSumKb = 0;
    let peakHwmKb = 0;
    const sample = () => {
      // Under GNU time the measured tree is time's descendants; time itself (about 2 MB) is not counted.
      const pids = hasGnuTime ? descendants(child.pid) : [child.pid, ...descendants(child.pid)];
      let sum = 0;
      for (const pid of pids) {
        const s = readStatus(pid);
        if (!s) continue;
        seen.add(pid);
        sum += s.rssKb;
        peakHwmKb = Math.max(peakHwmKb, s.hwmKb);
      }
      peakSumKb = Math.max(peakSumKb, sum);
    };
    const sampler = setInterval(sample, SAMPLE_MS);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      killTree(child.pid);
    }, timeoutMs);
    child.on('close', (code, signal) => {
      const wallS = (performance.now() - started) / 1000;
      clearInterval(sampler);
      clearTimeout(timer);
      killTree(child.pid); // anything the command left behind in its group
      let timeKb = 0;
      const exitCode = code;
      const m = stderr.match(/__BENCH_TIME__ ([\d.]+) (\d+)\s*$/);
      if (m) {
        timeKb = Number(m[2]);
        stderr = stderr.slice(0, m.index);
      }
      // GNU time exits with the command's status; it reports a signal death as "Command terminated by
      // signal N" and status 128+N.
      if (hasGnuTime && /Command (terminated by signal|exited with non-zero status)/.test(stderr)) {
        stderr = stderr
          .replace(/^Command (terminated by signal|exited with non-zero status).*$/m, '')
          .trimEnd();
      }
      const peakKb = Math.max(timeKb, peakHwmKb, peakSumKb);
      resolve({
        wallS,
        peakRssMb: peakKb / 1024,
        exitCode,
        signal,
        timedOut,
        stdout,
        stderr,
        processes: seen.size,
        rss: { gnuTimeMb: timeKb / 1024, maxHwmMb: peakHwmKb / 1024, maxTreeSumMb: peakSumKb / 1024 },
      });
    });
  });
}

export function median(values) {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
