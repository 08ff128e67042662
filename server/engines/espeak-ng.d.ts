// Types for the espeak-ng npm package (eSpeak-NG compiled to WASM), which ships none.
declare module 'espeak-ng' {
  interface EspeakModule {
    FS: {
      readFile(path: string): Uint8Array;
      writeFile(path: string, data: string | Uint8Array): void;
      analyzePath(path: string): { exists: boolean };
    };
  }
  interface EspeakOptions {
    arguments: string[];
    preRun?: Array<(module: EspeakModule) => void>;
    print?: (text: string) => void;
    printErr?: (text: string) => void;
  }
  const factory: (options: EspeakOptions) => Promise<EspeakModule>;
  export default factory;
}
