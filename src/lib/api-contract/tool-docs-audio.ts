// The documentation of the speech, avatar and transcription tools of POST /api/async/<tool>: summary, example, fields.
import { RUN_OPTIONS, SAMPLE_MODELS, TASK_LIMITS, VOICES, type PublicTool } from '../product-rules';
import type { ToolDoc } from './operation-shape';
import { engineDependent } from './tool-field-docs';

const voiceIds = VOICES.map((v) => v.id).join(', ');

const speechFields = {
  text: `What to say, 1 to ${TASK_LIMITS.maxTextChars} characters`,
  audioId: `A voice id: ${voiceIds}`,
  lan: 'A language (e.g. en-US, fr); picks its default voice when audioId is not given',
  speed: `Words per minute, ${RUN_OPTIONS.speed.min} to ${RUN_OPTIONS.speed.max}`,
  pitch: engineDependent(
    `Pitch, ${RUN_OPTIONS.pitch.min} (low) to ${RUN_OPTIONS.pitch.max} (high); ${RUN_OPTIONS.pitch.default} is the voice's own`,
  ),
};
const lipsyncFields = {
  srcVideoUrl: 'The video whose lips move',
  audioUrl: 'The speech to lip-sync to',
  vocalAudioUrl: 'Optional isolated vocals of audioUrl',
  videoParams: 'Output size, enhancement and frame rate',
};
const transcriptionFields = {
  audioUrl: 'The recording',
  lan: 'Its language (e.g. en-US), or a list of them as DreamAPI takes it (the first is used); detected when missing',
};

export const AUDIO_TOOL_DOCS = {
  do_tts_common: {
    id: 'ttsCommon',
    tag: 'Speech',
    summary: 'Text to speech',
    description: 'Speaks a text with one of the voices.',
    example: { text: 'Hello from the API', audioId: 'en-us-female-1' },
    fields: speechFields,
  },
  do_tts_pro: {
    id: 'ttsPro',
    tag: 'Speech',
    summary: 'Text to speech (Pro)',
    description: 'The Pro speech tier, with the same fields.',
    example: { text: 'Hello from the API', audioId: 'en-gb-male-1' },
    fields: speechFields,
  },
  voice_clone: {
    id: 'voiceClone',
    tag: 'Speech',
    summary: 'Clone a voice',
    description: 'Makes a voice from a recording; the result carries a cloneId for do_tts_clone.',
    example: { voiceUrl: 'https://example.com/voice.wav' },
    fields: { voiceUrl: 'A clean recording of the voice' },
  },
  do_tts_clone: {
    id: 'ttsClone',
    tag: 'Speech',
    summary: 'Speak with a cloned voice',
    description: 'Speaks a text with a voice made by voice_clone.',
    example: { cloneId: 'clone_123', text: 'Hello in my own voice' },
    fields: { cloneId: 'The cloneId of a finished voice_clone task', text: speechFields.text, lan: speechFields.lan },
  },
  dialogue: {
    id: 'dialogue',
    tag: 'Speech',
    summary: 'Dialogue',
    description:
      `A conversation of up to ${TASK_LIMITS.maxDialogueSpeakers} speakers in one audio file, each ` +
      `line spoken in its speaker's voice. Charged on the characters of every line.`,
    example: {
      lines: [
        { speaker: 'Alex', text: 'Hi Sam!' },
        { speaker: 'Sam', text: 'Hi Alex, how are you?' },
      ],
      voices: { Alex: 'en-us-female-1', Sam: 'en-gb-male-1' },
    },
    fields: {
      lines: `The lines in order, each {speaker, text}; at most ${TASK_LIMITS.maxDialogueLines}`,
      voices: `A voice id per speaker: ${voiceIds}`,
      speed: speechFields.speed,
      pitch: speechFields.pitch,
    },
  },
  talking_face: {
    id: 'talkingFace',
    tag: 'Video',
    summary: 'Talking face',
    description: 'Makes a face in a video speak an audio track.',
    example: { srcVideoUrl: 'https://example.com/face.mp4', audioUrl: 'https://example.com/speech.wav' },
    fields: lipsyncFields,
  },
  lipsync: {
    id: 'lipsync',
    tag: 'Video',
    summary: 'Lip sync',
    description: 'Re-times the lips of a video to a new audio track.',
    example: { srcVideoUrl: 'https://example.com/face.mp4', audioUrl: 'https://example.com/speech.wav' },
    fields: lipsyncFields,
  },
  talking_image: {
    id: 'talkingImage',
    tag: 'Video',
    summary: 'Talking image',
    description: 'Animates a portrait photo (up to 1280×1280) to speak an audio track.',
    example: { photoUrl: 'https://example.com/portrait.png', audioUrl: 'https://example.com/speech.wav' },
    fields: {
      photoUrl: 'A portrait photo, up to 1280×1280',
      modelId: `Instead of a photo, a sample model: ${SAMPLE_MODELS.map((m) => m.id).join(', ')} (only the preview engine draws them)`,
      audioUrl: 'The speech',
    },
  },
  do_stt: {
    id: 'sttCommon',
    tag: 'Speech',
    summary: 'Speech to text',
    description: 'Transcribes an audio file; the result carries the transcript in `text`.',
    example: { audioUrl: 'https://example.com/meeting.mp3' },
    fields: transcriptionFields,
  },
  do_stt_pro: {
    id: 'sttPro',
    tag: 'Speech',
    summary: 'Speech to text (Pro)',
    description: 'The Pro transcription tier, which also tells speakers apart; the transcript is in `text`.',
    example: { audioUrl: 'https://example.com/meeting.mp3' },
    fields: transcriptionFields,
  },
} satisfies Partial<Record<PublicTool, ToolDoc>>;
