// Confines an ffmpeg/ffprobe command line: every input may open local files only, never a network protocol.

/** The protocols an input, and anything it names (playlist entries, concat lists, references), may open. */
const LOCAL_ONLY = ['-protocol_whitelist', 'file'];

/*
 * Why in the runner: -protocol_whitelist is an option of one input (ffmpeg) and is inherited by whatever that
 * input opens in turn (HLS segments, concat entries, MOV references), so it must stand before every -i. A
 * caller that forgets it would let a downloaded playlist make ffmpeg fetch http:// URLs from inside our
 * network. lavfi inputs open no protocol, so the whitelist costs them nothing.
 */

/** `args` with -protocol_whitelist file before every input that names none; ffprobe's one input gets it up front. */
export function confineArgs(args: readonly string[]): string[] {
  if (!args.includes('-i')) return args.includes('-protocol_whitelist') ? [...args] : [...LOCAL_ONLY, ...args];
  const out: string[] = [];
  let named = false;
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '-protocol_whitelist') named = true;
    if (arg === '-i') {
      if (!named) out.push(...LOCAL_ONLY);
      named = false;
      out.push(arg, args[++i]!);
      continue;
    }
    out.push(arg);
  }
  return out;
}

/**
 * Whether a run's stderr says it ran out of memory (its RLIMIT_AS): ffmpeg then logs a failed allocation and may
 * still exit 0 with what it got, which for an outside file must count as unreadable, not as a measurement.
 */
export function ranOutOfMemory(stderr: string): boolean {
  return /Cannot allocate memory|get_buffer\(\) failed|failed to map segment|out of memory/i.test(stderr);
}
