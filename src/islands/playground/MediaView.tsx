// A result or example file in its player: audio and video with controls, an image with its label as alt text; what
// each loads before it is played is the caller's (a list of many loads less than one run's result).
import type { AudioHTMLAttributes, ImgHTMLAttributes, VideoHTMLAttributes } from 'react';

interface Props {
  /** audio, video, or else an image. */
  kind: string;
  src: string;
  label: string;
  className?: string;
  /** The data-testid names the kind after this: `result-audio`, `example-video`. */
  testId: 'result' | 'example';
  audio?: AudioHTMLAttributes<HTMLAudioElement>;
  video?: VideoHTMLAttributes<HTMLVideoElement>;
  img?: ImgHTMLAttributes<HTMLImageElement>;
}

export default function MediaView({ kind, src, label, className, testId, audio, video, img }: Props) {
  const testid = `${testId}-${kind}`;
  if (kind === 'audio')
    return <audio className={className} controls src={src} aria-label={label} data-testid={testid} {...audio} />;
  if (kind === 'video')
    return (
      <video className={className} controls playsInline src={src} aria-label={label} data-testid={testid} {...video} />
    );
  return <img className={className} src={src} alt={label} data-testid={testid} {...img} />;
}
