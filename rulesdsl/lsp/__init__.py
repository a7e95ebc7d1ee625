"""The language server (``rulesdsl lsp``): diagnostics as you type, hover, completion and go to
definition for YAML and ``.rules`` rulesets, from the same checker as ``rulesdsl validate``.

``server`` wires the features to pygls (the ``lsp`` extra); the rest (``cursor``, ``keys``,
``document``, ``names``, and one module per feature) is plain Python over the ruleset's own layers.
"""
