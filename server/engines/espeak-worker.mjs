// One thread of the eSpeak-NG pool (./espeak-pool.ts, on piscina): synthesizes texts one after another on a thread that
// lives on. The WASM module (18 MB) is compiled once per thread, and each synthesis runs on a fresh instance of it, so
// calls stay as independent as separate programs; the next instance is made while the thread waits, not while a caller
// does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import factory from 'espeak-ng';
import { move } from 'piscina';

const wasmFile = fileURLToPath(new URL('espeak-ng.wasm', import.meta.resolve('espeak-ng')));
const compiled = await WebAssembly.compile(readFileSync(wasmFile));
const encoder = new TextEncoder();

/** A ready instance, its exports and what it printed to stderr, with the program's main not yet run. */
async function instance() {
  let exports;
  const errors = [];
  const module = await factory({
    noInitialRun: true,
    instantiateWasm(imports, receive) {
      WebAssembly.instantiate(compiled, imports).then((made) => {
        exports = made.exports;
        receive(made, compiled);
      });
      return {};
    },
    print: () => {},
    printErr: (line) => {
      if (!line.includes('keepRuntimeAlive')) errors.push(line);
    },
  });
  return { module, exports, errors };
}

/** Runs the program's main with `args` (what Emscripten's callMain does, which this build does not export). */
function runMain({ module, exports }, args) {
  const argv = ['espeak-ng', ...args];
  const stack = exports.stackSave();
  try {
    const pointers = argv.map((arg) => {
      const bytes = encoder.encode(`${arg}\0`);
      const at = exports.stackAlloc(bytes.length);
      module.HEAPU8.set(bytes, at);
      return at;
    });
    const table = exports.stackAlloc(4 * (argv.length + 1));
    pointers.forEach((at, i) => (module.HEAPU32[(table >> 2) + i] = at));
    module.HEAPU32[(table >> 2) + argv.length] = 0;
    return module._main(argv.length, table);
  } catch (error) {
    // exit() inside the program ends main by throwing ExitStatus; the status is the answer.
    if (error?.name === 'ExitStatus') return error.status;
    throw error;
  } finally {
    exports.stackRestore(stack);
  }
}

/** Makes the next instance; a failure is answered by the synthesis that awaits it, not thrown here. */
function prepare() {
  const next = instance();
  next.catch(() => {});
  return next;
}

/** Speaks one text on the spare instance: its WAV bytes, or null, and what the program printed to stderr. */
async function speak({ text, voice, wpm, pitch }) {
  const ready = await spare;
  // The text goes in through a file so no character of it can be read as a command-line option.
  ready.module.FS.writeFile('/in.txt', text);
  runMain(ready, ['-b', '1', '-v', voice, '-s', String(wpm), '-p', String(pitch), '-w', '/out.wav', '-f', '/in.txt']);
  return {
    wav: ready.module.FS.analyzePath('/out.wav').exists ? ready.module.FS.readFile('/out.wav') : null,
    errors: ready.errors,
  };
}

/**
 * The piscina task: WAV bytes of one text, moved to the caller rather than copied; a failure rejects with its reason.
 */
export default async function synthesize(job) {
  let spoken;
  try {
    spoken = await speak(job);
  } catch (error) {
    throw new Error(`espeak-ng failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  } finally {
    // Every synthesis gets an instance of its own: the used one is dropped, the next one made now (piscina gives a
    // thread one task at a time, so no two ever share an instance).
    spare = prepare();
  }
  if (!spoken.wav) throw new Error(`espeak-ng produced no audio: ${spoken.errors.join('; ') || 'unknown error'}`);
  return move(spoken.wav);
}

let spare = prepare();
