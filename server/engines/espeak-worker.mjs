// One eSpeak-NG synthesis on a worker thread: the WASM run is CPU-bound and would stall every request on the main thread.
import { parentPort, workerData } from 'node:worker_threads';
import factory from 'espeak-ng';

/** @type {{ text: string, voice: string, wpm: number, pitch: number }} */
const { text, voice, wpm, pitch } = workerData;
const errors = [];
try {
  // The text goes in through a file so no character of it can be read as a command-line option.
  const module = await factory({
    arguments: ['-b', '1', '-v', voice, '-s', String(wpm), '-p', String(pitch), '-w', '/out.wav', '-f', '/in.txt'],
    preRun: [(m) => m.FS.writeFile('/in.txt', text)],
    print: () => {},
    printErr: (line) => {
      if (!line.includes('keepRuntimeAlive')) errors.push(line);
    },
  });
  if (module.FS.analyzePath('/out.wav').exists) {
    const wav = module.FS.readFile('/out.wav');
    parentPort.postMessage({ wav }, [wav.buffer]);
  } else {
    parentPort.postMessage({ error: `espeak-ng produced no audio: ${errors.join('; ') || 'unknown error'}` });
  }
} catch (error) {
  parentPort.postMessage({ error: `espeak-ng failed: ${error instanceof Error ? error.message : String(error)}` });
}
