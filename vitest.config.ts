// Vitest projects: node for lib and server code, happy-dom for React islands (DESIGN.md "Stack, and why").
import os from 'node:os';
import { defineConfig } from 'vitest/config';
import { ProcessFirstSequencer } from './tests/setup/process-first-sequencer';

export default defineConfig({
  test: {
    // Upper bounds for a slow or shared machine; no test asserts how fast something is (bench/ measures that).
    testTimeout: 20_000,
    hookTimeout: 30_000,
    // Many files spend their time waiting on sockets, child processes and databases: one worker more than the cores
    // keeps the cores busy (on 2 cores: 7.0 → 4.5 min). Vitest's own default is one fewer than the cores.
    maxWorkers: os.availableParallelism() + 1,
    sequence: { sequencer: ProcessFirstSequencer },
    globalSetup: ['tests/setup/built-server.ts'],
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'src/lib/**/*.test.ts',
            'src/worker/**/*.test.ts',
            'server/**/*.test.ts',
            'tests/structure/**/*.test.ts',
            'tests/cluster/**/*.test.ts',
          ],
        },
      },
      {
        test: {
          name: 'dom',
          environment: 'happy-dom',
          include: ['src/islands/**/*.test.{ts,tsx}'],
          setupFiles: ['tests/setup/dom-waits.ts'],
        },
      },
    ],
  },
});
