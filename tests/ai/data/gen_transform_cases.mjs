// Generates tests/ai/data/transform_cases.json from pi-ai 0.73.1's transformMessages (timestamps of synthetic
// results normalised to 0). Run from a directory with @mariozechner/pi-ai@0.73.1 installed.
import { transformMessages } from "./node_modules/@mariozechner/pi-ai/dist/providers/transform-messages.js";
const anthropicNorm = (id) => id.replace(/[^a-zA-Z0-9_-]/g, "_").slice(0, 64);
const sonnet = { id: "claude-sonnet-4-5", name: "s", api: "anthropic-messages", provider: "github-copilot", baseUrl: "", reasoning: true, input: ["text", "image"], cost: {input:0,output:0,cacheRead:0,cacheWrite:0}, contextWindow: 1, maxTokens: 1 };
const textOnly = { ...sonnet, id: "text-only", input: ["text"] };
const usage = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } };
const gpt = (content, extra = {}) => ({ role: "assistant", content, api: "openai-responses", provider: "github-copilot", model: "gpt-5", usage, stopReason: "toolUse", timestamp: 1, ...extra });
const same = (content, extra = {}) => ({ role: "assistant", content, api: "anthropic-messages", provider: "github-copilot", model: "claude-sonnet-4-5", usage, stopReason: "toolUse", timestamp: 1, ...extra });
const user = (content) => ({ role: "user", content, timestamp: 2 });
const result = (id, name, text = "ok", extra = {}) => ({ role: "toolResult", toolCallId: id, toolName: name, content: [{ type: "text", text }], isError: false, timestamp: 3, ...extra });
const img = { type: "image", data: "AAAA", mimeType: "image/png" };
const longId = "call_abc|fc_" + "x+/=".repeat(30);
const cases = [
  ["thinking to text across models", sonnet, [user("hi"), gpt([{ type: "thinking", thinking: "Let me think", thinkingSignature: "sig" }, { type: "text", text: "Answer", textSignature: "ts" }], { stopReason: "stop" })]],
  ["thought signature removed across models", sonnet, [user("hi"), gpt([{ type: "toolCall", id: "call_1", name: "read", arguments: { path: "a" }, thoughtSignature: "ts" }]), result("call_1", "read")]],
  ["trailing orphan tool calls", sonnet, [user("hi"), gpt([{ type: "toolCall", id: "call_1", name: "read", arguments: {} }, { type: "toolCall", id: "call_2", name: "bash", arguments: {} }])]],
  ["only missing results synthesised", sonnet, [user("hi"), gpt([{ type: "toolCall", id: "call_1", name: "read", arguments: {} }, { type: "toolCall", id: "call_2", name: "bash", arguments: {} }]), result("call_1", "read"), user("next")]],
  ["orphan before next assistant", sonnet, [user("hi"), gpt([{ type: "toolCall", id: "call_1", name: "read", arguments: {} }]), gpt([{ type: "text", text: "more" }], { stopReason: "stop" })]],
  ["errored and aborted assistant dropped", sonnet, [user("hi"), gpt([{ type: "text", text: "partial" }], { stopReason: "error", errorMessage: "boom" }), user("again"), same([{ type: "text", text: "part" }], { stopReason: "aborted", errorMessage: "Request was aborted" }), user("third")]],
  ["errored assistant with tool calls dropped without synthetic results", sonnet, [user("hi"), gpt([{ type: "toolCall", id: "call_1", name: "read", arguments: {} }], { stopReason: "error", errorMessage: "x" }), user("again")]],
  ["id normalisation and result remap", sonnet, [user("hi"), gpt([{ type: "toolCall", id: longId, name: "read", arguments: {} }]), result(longId, "read")]],
  ["same model keeps thinking and signatures", sonnet, [user("hi"), same([{ type: "thinking", thinking: "", thinkingSignature: "enc" }, { type: "thinking", thinking: "plain" }, { type: "thinking", thinking: "  " }, { type: "thinking", thinking: "", thinkingSignature: "red", redacted: true }, { type: "text", text: "t", textSignature: "x" }, { type: "toolCall", id: "a|b", name: "read", arguments: {}, thoughtSignature: "s" }]), result("a|b", "read")]],
  ["redacted and empty thinking dropped across models", sonnet, [user("hi"), gpt([{ type: "thinking", thinking: "secret", thinkingSignature: "r", redacted: true }, { type: "thinking", thinking: "   " }, { type: "text", text: "t" }], { stopReason: "stop" })]],
  ["images downgraded", textOnly, [user([{ type: "text", text: "look" }, img, img, { type: "text", text: "and" }, img]), same([{ type: "toolCall", id: "c1", name: "shot", arguments: {} }], { model: "text-only" }), { role: "toolResult", toolCallId: "c1", toolName: "shot", content: [img, { type: "text", text: "(tool image omitted: model does not support images)" }, img, { type: "text", text: "x" }], isError: false, timestamp: 3 }]],
  ["images kept for vision model", sonnet, [user([img, { type: "text", text: "look" }])]],
  ["string user content unchanged", textOnly, [user("plain")]],
];
const norm = (m) => ({ ...m, ...(m.role === "toolResult" && m.content?.[0]?.text === "No result provided" ? { timestamp: 0 } : {}) });
const out = cases.map(([name, model, messages]) => ({ name, model, messages, expected: transformMessages(structuredClone(messages), model, anthropicNorm).map(norm) }));
console.log(JSON.stringify(out, null, 1));
