// The pricing page's rows: every feature has exactly one, named as the playground names it, at the price the server
// charges.
import { describe, expect, it } from 'vitest';
import {
  FEATURE_LABELS,
  FEATURES,
  FEATURE_SCREENS,
  featurePrice,
  TEXT_TO_VIDEO_OPTIONS,
  type Feature,
} from '../product-rules';
import { PRICE_ROWS, variantText } from './price-rows';
import { productBySlug } from './products';

const rows = PRICE_ROWS.flatMap((group) => group.rows);

describe('PRICE_ROWS', () => {
  it('has one row for every feature the platform runs, Dialogue and Character to Video included', () => {
    const listed = rows.flatMap((row) => row.features);
    expect([...listed].sort()).toEqual([...FEATURES].sort());
    expect(rows.map((row) => row.name)).toEqual(
      expect.arrayContaining(['Dialogue', 'Character to Video · a script', 'Character to Video · your audio']),
    );
  });

  it("names a row by its playground screen's title, or as the history names an API-only feature", () => {
    for (const row of rows.filter((r) => r.features.length > 0)) {
      const feature = row.features[0]!;
      const screen = FEATURE_SCREENS[feature];
      if (screen) expect(row.name.startsWith(productBySlug(screen)!.title), row.name).toBe(true);
      else expect(row.name).toBe(FEATURE_LABELS[feature]);
      expect(row.apiOnly).toBe(!screen);
    }
    expect(rows.map((row) => row.name)).not.toEqual(expect.arrayContaining(['Live Photo', 'AI Model']));
  });

  it('prices each row with the §9 items its features are charged under', () => {
    const charged = (feature: Feature) =>
      feature === 'text-to-video' || feature === 'image-to-video' || feature === 'character-to-video'
        ? TEXT_TO_VIDEO_OPTIONS.map(
            (o) => featurePrice(feature, { durationS: o.durationS, resolution: o.resolution }).itemId,
          )
        : feature.startsWith('wan-')
          ? ['480p', '720p'].map((resolution) => featurePrice(feature, { resolution }).itemId)
          : [featurePrice(feature, {}).itemId];
    for (const row of rows)
      for (const feature of row.features)
        expect(
          row.items.map((i) => i.id),
          row.name,
        ).toEqual(charged(feature));
  });

  it('says a variant by clip length and resolution', () => {
    const video = rows.find((r) => r.features.includes('text-to-video'))!;
    expect(video.items.map(variantText)).toEqual(['4 s · 512p', '4 s · 720p', '8 s · 720p', '4 s · 1080p']);
    expect(variantText(rows[0]!.items[0]!)).toBe('');
  });
});
