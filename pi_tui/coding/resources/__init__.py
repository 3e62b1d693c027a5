"""Skills, prompt templates and project trust (pi 0.73 docs/skills.md, docs/prompt-templates.md; pi 1.x
docs/security.md).

Modules: ``trust`` (which project folders may load their resources), ``frontmatter`` (YAML front matter),
``skills`` and ``prompt_templates`` (one file each, expansion of ``/skill:name`` and ``/name args``),
``loader`` (discovery order, settings, CLI paths, reload), ``diagnostics`` (warnings naming the file).
Nothing is imported here, so ``trust`` stays cheap to import for the settings, extension and MCP loaders.
"""
