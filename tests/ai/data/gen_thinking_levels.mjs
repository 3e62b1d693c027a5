// Generates tests/ai/data/thinking_levels.json: getSupportedThinkingLevels and clampThinkingLevel of pi-ai 0.73.1
// for every catalogue model. Run from a directory with @mariozechner/pi-ai@0.73.1 installed.
import { getModels, getProviders, getSupportedThinkingLevels, clampThinkingLevel } from "@mariozechner/pi-ai";
const levels = ["off", "minimal", "low", "medium", "high", "xhigh"];
const out = {};
for (const p of getProviders()) for (const m of getModels(p)) {
  out[`${p}/${m.id}`] = { supported: getSupportedThinkingLevels(m), clamp: levels.map((l) => clampThinkingLevel(m, l)) };
}
console.log(JSON.stringify(out));
