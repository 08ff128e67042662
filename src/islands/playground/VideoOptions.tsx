// The §9 clip options (length × resolution) as radio buttons, each with what it costs here (the cost preview's own
// figure).
import { TEXT_TO_VIDEO_OPTIONS, type Feature } from '../../lib/product-rules';
import type { FeatureMap } from '../../lib/site/features';
import { costOf, priceTag } from './pricing';
import SegmentedChoice from './SegmentedChoice';
import choice from './SegmentedChoice.module.css';

export const optionKey = (o: { durationS: number; resolution: string }) => `${o.durationS}s-${o.resolution}`;

export default function VideoOptions({
  feature,
  features,
  value,
  onChange,
}: {
  feature: Feature;
  features: FeatureMap | null;
  value: string;
  onChange: (key: string) => void;
}) {
  const choices = TEXT_TO_VIDEO_OPTIONS.map((o) => ({
    value: optionKey(o),
    label: (
      <>
        {o.durationS}s · {o.resolution}{' '}
        <span className={choice.price}>
          {priceTag(costOf(feature, { resolution: o.resolution, durationS: o.durationS }, features))}
        </span>
      </>
    ),
  }));
  return (
    <SegmentedChoice
      legend="Length and resolution"
      name="video-option"
      choices={choices}
      value={value}
      onChange={onChange}
    />
  );
}
