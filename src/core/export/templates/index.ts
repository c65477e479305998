/** The chat templates exports are checked against, by name (the render check renders, the token counts count). */
import { QWEN25_CHAT_TEMPLATE } from './qwen25';
import { QWEN3_CHAT_TEMPLATE } from './qwen3';

export const CHAT_TEMPLATES = { 'qwen2.5': QWEN25_CHAT_TEMPLATE, qwen3: QWEN3_CHAT_TEMPLATE } as const;
export type ChatTemplateName = keyof typeof CHAT_TEMPLATES;
export const CHAT_TEMPLATE_NAMES = Object.keys(CHAT_TEMPLATES) as ChatTemplateName[];
