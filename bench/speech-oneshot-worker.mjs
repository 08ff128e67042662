// Baseline of the speech benchmark: one synthesis on a thread of its own, started for it and compiling the WASM module
// anew, as the engine ran before its thread pool (bench/speech-bench.ts runs both side by side).
import { parentPort, workerData } from 'node:worker_threads';
import factory from 'espeak-ng';

const { text, voice, wpm, pitch } = workerData;
try {
  const module = await factory({
    arguments: ['-b', '1', '-v', voice, '-s', String(wpm), '-p', String(pitch), '-w', '/out.wav', '-f', '/in.txt'],
    preRun: [(m) => m.FS.writeFile('/in.txt', text)],
    print: () => {},
    printErr: () => {},
  });
  const wav = module.FS.readFile('/out.wav');
  parentPort.postMessage({ wav }, [wav.buffer]);
} catch (error) {
  parentPort.postMessage({ error: String(error) });
}
