"""The rules of a ruleset in plain English: every construct of the language as
English (:mod:`rulepack.rulebook.english`), a rulebook in the usual order
(:mod:`rulepack.rulebook.book`) and its Markdown, HTML and PDF
(:mod:`rulepack.rulebook.output`)."""
