"""Bots that see views only (:mod:`~rulepack.agents.bots`) and the determinization
of what a player cannot see (:mod:`~rulepack.agents.determinize`)."""
