// The capacity bench's cluster: the built server (as `npm start` runs it) started as ROLE=api and ROLE=worker processes
// on free ports.
import { serverCommand } from '../scripts/server-command.mjs';
import { killAll, startServerProcess, type Instance } from '../tests/cluster/server-processes';

export interface MeasuredInstance extends Instance {
  pid: number;
  /** Lines the process wrote to stderr (warnings and errors; LOG_LEVEL=warn). */
  stderrLines: () => number;
}

/**
 * Lines of each process's stderr passed on as they come; the rest are only counted (a failing run would flood the
 * output).
 */
const ECHOED_LINES = 5;

export function startCluster() {
  const instances: Instance[] = [];
  let command: ReturnType<typeof serverCommand> | undefined;

  /** Starts one process of `role` (its own DATA_DIR); resolves once it prints that it is running. */
  async function start(role: Instance['role'], name: string, env: Record<string, string>): Promise<MeasuredInstance> {
    // Built once (under a second), then every process runs the same bundle.
    command ??= serverCommand();
    let lines = 0;
    const echo = (text: string) => {
      for (const line of text.split('\n').filter(Boolean))
        if (lines++ < ECHOED_LINES) process.stderr.write(`[${name}] ${line.slice(0, 400)}\n`);
    };
    const instance = await startServerProcess({
      command: await command,
      role,
      name,
      env,
      timeoutMs: 60_000,
      all: instances,
      onStderr: echo,
    });
    return { ...instance, pid: instance.child.pid!, stderrLines: () => lines };
  }

  /** SIGKILL to every process still alive; waits for them to go and removes their data directories. */
  const stop = () => killAll(instances);

  return { start, stop };
}
