// Task billing: a refused feature's operator hint goes to the log (once at warn level), holds cover the dearest engine
// of a chain.
import { describe, expect, it } from 'vitest';
import { ERROR_CODES, FEATURE_MESSAGES } from '../../src/lib/product-rules';
import { createEngineRegistry } from '../engines';
import type { Logger } from '../log';
import { testEngine } from '../test-support/tasks';
import { taskBilling } from './billing';

function recordingLog() {
  const lines: Array<{ level: string; msg: string; fields?: Record<string, unknown> }> = [];
  const at = (level: string) => (msg: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, msg, fields });
  const log: Logger = { debug: at('debug'), info: at('info'), warn: at('warn'), error: at('error') };
  return { log, lines };
}

describe('taskBilling', () => {
  it('refuses a feature with no engine with 503 for the caller and logs what to configure for the operator, at warn once', () => {
    const { log, lines } = recordingLog();
    const billing = taskBilling({ engines: createEngineRegistry({}), noModelPrice: 'free', log });
    for (let i = 0; i < 3; i++) {
      expect(() => billing.engineFor('tryon-clothes')).toThrow(
        expect.objectContaining({
          status: 503,
          code: ERROR_CODES.featureUnavailable,
          message: FEATURE_MESSAGES.unavailable,
        }),
      );
    }
    expect(lines.map((l) => l.level)).toEqual(['warn', 'debug', 'debug']);
    expect(lines[0]!.fields).toMatchObject({ feature: 'tryon-clothes' });
    expect(String(lines[0]!.fields!.hint)).toContain('ENGINES');
  });

  it('holds the full price when any engine of the chain has an AI model, settles on the engine that made the result', () => {
    const { log } = recordingLog();
    const engines = createEngineRegistry({ 'tts-common': ['model', 'espeak'], 'tts-pro': ['espeak'] }, [
      testEngine({ name: 'model' }),
    ]);
    const billing = taskBilling({ engines, noModelPrice: 'free', log });
    expect(billing.hold('tts-common', { characters: 300 })).toEqual({ itemId: 'tts-common', credits: 2 });
    expect(billing.hold('tts-pro', { characters: 300 })).toEqual({ itemId: 'tts-pro', credits: 0 });
    expect(billing.settle('tts-common', { characters: 300 }, 'model')).toBe(2);
    expect(billing.settle('tts-common', { characters: 300 }, 'espeak')).toBe(0);
    expect(
      taskBilling({ engines, noModelPrice: 'full', log }).settle('tts-common', { characters: 300 }, 'espeak'),
    ).toBe(2);
  });
});
