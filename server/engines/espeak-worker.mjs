// One thread of the eSpeak-NG pool (./espeak-pool.ts): synthesizes texts one after another on a thread that lives on.
// The WASM module (18 MB) is compiled once per thread, and each synthesis runs on a fresh instance of it, so calls stay
// as independent as separate programs; the next instance is made while the thread waits, not while a caller does.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parentPort } from 'node:worker_threads';
import factory from 'espeak-ng';

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

async function synthesize({ id, text, voice, wpm, pitch }) {
  try {
    const ready = await spare;
    // The text goes in through a file so no character of it can be read as a command-line option.
    ready.module.FS.writeFile('/in.txt', text);
    runMain(ready, ['-b', '1', '-v', voice, '-s', String(wpm), '-p', String(pitch), '-w', '/out.wav', '-f', '/in.txt']);
    if (ready.module.FS.analyzePath('/out.wav').exists) {
      const wav = ready.module.FS.readFile('/out.wav');
      parentPort.postMessage({ id, wav }, [wav.buffer]);
    } else {
      parentPort.postMessage({ id, error: `espeak-ng produced no audio: ${ready.errors.join('; ') || 'unknown error'}` });
    }
  } catch (error) {
    parentPort.postMessage({ id, error: `espeak-ng failed: ${error instanceof Error ? error.message : String(error)}` });
  } finally {
    // Every synthesis gets an instance of its own: the used one is dropped, the next one made now.
    spare = prepare();
  }
}

let spare = prepare();
// The pool sends a thread one text at a time; should two ever arrive, they run in turn, never on one instance.
let turn = Promise.resolve();
parentPort.on('message', (job) => {
  turn = turn.then(() => synthesize(job));
});
