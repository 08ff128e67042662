// The Chinese console warnings of the tracking client (SPEC.md §8), re-exported by messages.ts; a module of its own
// so the page's tracking stub bundles them and nothing else of the message catalogue.

/**
 * Console warnings for invalid tracking input. SPEC.md §8 says they are printed in Chinese and §5 says invalid
 * events are dropped; the wording is ours because SPEC.md does not show it.
 */
export const TRACKING_WARNINGS = {
  appKey: 'appKey 必须是非空字符串',
  eventId: '事件 ID 必须是非空字符串，由下划线分隔为 3 段或 5 段（设置前缀时为 2 段），该事件已丢弃',
  eventPrefix: '事件 ID 前缀必须为空，或由下划线分隔为 3 段',
  action: '事件行为必须是 click、slide、show、hover、stay、dis、pull、dclick、start、press 之一，该事件已丢弃',
  domain: 'domain 如果传入，必须是字符串，该事件已丢弃',
  logmap: 'logmap 必须是对象（不能是 null 或数组），该事件已丢弃',
} as const;

export type TrackingWarningKey = keyof typeof TRACKING_WARNINGS;
