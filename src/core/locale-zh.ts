// The Chinese model-facing texts: a module of their own, so only layers with `locale: 'zh'` load them
// (and 'tool-search-layer/zh' gives them to a host that wants them at once, e.g. as `texts`).
import type { Texts } from './texts.ts';

/** The built-in Chinese texts, every key of `Texts`. */
export const zh: Texts = {
  description:
    '搜索本次对话可用的工具，返回它们的完整定义。只有随本次请求发送的工具可以直接调用；其他工具必须先用本工具搜到，在此之前无从得知它们的参数。query 填写描述任务的关键词（例如“天气预报”）或工具名称，多个关键词用空格分隔。搜到的工具从下一步起即可直接调用。',
  namesIntro: '可搜索的其他工具（只列名称，供你构造搜索关键词；调用某个工具前，必须先搜索它以获取参数定义）：',
  namesMore: '……另有 {count} 个工具未在此列出，请按关键词搜索。',
  namesMoreGroups: '……另有 {count} 个工具未在此列出，分属以下分组：{groups}。请按关键词搜索。',
  queryParam: '搜索关键词，多个用空格分隔；任一关键词出现在工具名称或描述中即算匹配。传空字符串则列出全部工具。',
  queryParamSemantic:
    '搜索关键词（多个用空格分隔），或对任务的简短描述；任一关键词出现在工具名称或描述中，或工具与查询语义相近，即算匹配。传空字符串则列出全部工具。',
  limitParam: '最多返回多少个工具。',
  offsetParam: '跳过前多少个结果，用于翻页。',
  hintFound: '下一步可直接按名称调用。',
  hintMore: '如需更多，请把 offset 设为 {nextOffset} 再次搜索。',
  hintShown: '标有 shown 的工具已在本次对话中较早发送过完整的参数定义。',
  hintNone: '没有匹配的工具。请换用其他关键词：同义词、任务中的动作或对象，或 search_tools 描述里列出的工具名称。',
  hintNoKeywords: '查询里没有可用的关键词：单个拉丁字母和“的”“the”这类停用词会被忽略。请换用能描述任务的词语。',
  hintPastEnd: 'offset {offset} 已超出结果范围（共 {found} 个结果），请使用小于 {found} 的 offset。',
  hintTruncated: '查询过长，已截取前 1000 个字符、64 个关键词；查询越简短，效果越好。',
  hintCapped: '每次搜索最多返回 {max} 个工具。',
  hintIgnored: '已忽略未知参数：{keys}。',
  argsError: 'search_tools 参数无效：{reason}',
  argsHint:
    '请用 JSON 对象调用 search_tools，例如 {"query": "发送邮件", "limit": 5, "offset": 0}：query 为关键词字符串（必填），limit 为不小于 1 的整数，offset 为不小于 0 的整数。',
  reasonNotObject: '参数应为一个 JSON 对象。',
  reasonQuery: 'query 必须是字符串。',
  reasonLimit: 'limit 必须是不小于 1 的整数。',
  reasonOffset: 'offset 必须是不小于 0 的整数。',
  listSeparator: '、',
  notDiscoveredError: '未调用工具“{name}”：你还没有看到它的定义，不知道它的参数。',
  notDiscoveredHint: '请先调用 search_tools（例如 {"query": "{query}"}），再按返回的参数定义调用“{name}”。',
  discoveredNowHint: '未调用工具“{name}”。它的完整定义见上：请按其参数定义重新调用。',
  unknownToolError: '没有名为“{name}”的可用工具，未调用任何工具。',
  unknownToolHint: '最接近的名称：{names}。调用前请先用 search_tools 搜索，获取工具的参数定义。',
  unknownToolHintNone: '请用 search_tools 搜索所需的工具并获取其参数定义。',
};
