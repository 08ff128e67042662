// Each tool's reference reads its price, its example's charge and its measured field from the product rules.
import { describe, expect, it } from 'vitest';
import { featurePriceText, LENGTH_INPUTS, listPrice, PUBLIC_TOOLS, type PublicTool } from '../product-rules';
import { EXAMPLE_MEDIA_SECONDS } from './examples';
import { TOOL_OPERATIONS } from './tool-operations';

const operation = (tool: PublicTool) => TOOL_OPERATIONS.find((o) => o.path === `/api/async/${tool}`)!;
const charged = (tool: PublicTool) => (operation(tool).response.example as { credits: number }).credits;

describe('tool operations', () => {
  it('state the price of the feature each tool runs, both prices for video_translate', () => {
    for (const tool of Object.keys(PUBLIC_TOOLS) as PublicTool[]) {
      expect(operation(tool).description, tool).toContain(`Price: ${featurePriceText(PUBLIC_TOOLS[tool])}`);
    }
    expect(operation('video_translate/2.0').description).toContain(
      `${featurePriceText('video-translate-voice-only')} without`,
    );
  });

  it("answer with the example's own charge: images times their count, media at the examples' length, clips by row", () => {
    const example = operation('image_generation').request!.example as { count: number };
    expect(charged('image_generation')).toBe(listPrice('image-generation', { count: example.count }).credits);
    expect(example.count).toBeGreaterThan(1);
    expect(charged('talking_image')).toBe(listPrice('talking-image', { seconds: EXAMPLE_MEDIA_SECONDS }).credits);
    expect(charged('text2video')).toBe(listPrice('text-to-video', { durationS: 4, resolution: '720p' }).credits);
    expect(charged('voice_clone')).toBe(0);
  });

  it('say of the field whose length sets the estimate, and of no other, that it does', () => {
    for (const tool of Object.keys(PUBLIC_TOOLS) as PublicTool[]) {
      const measured = LENGTH_INPUTS[PUBLIC_TOOLS[tool]]?.field;
      const noted = Object.entries(operation(tool).request!.fields!).filter(([, doc]) =>
        doc.includes('sets the estimate'),
      );
      expect(
        noted.map(([field]) => field),
        tool,
      ).toEqual(measured ? [measured] : []);
    }
  });
});
