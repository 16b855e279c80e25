"""Editor support: the language server (``rulepack lsp``, needs the lsp extra).

:mod:`rulepack.lsp.analysis` and :mod:`rulepack.lsp.reference` need nothing but
rulepack; :mod:`rulepack.lsp.server` speaks the protocol with pygls.
"""
