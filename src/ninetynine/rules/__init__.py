"""The game as data: the cards, what each rank does, the settings of a rule set, the
presets and house rules that name them, and the words they are told in.

============  ================================================================
``cards``     cards as small integers, and their text forms
``effects``   what a rank does to the total and to the turn order
``settings``  :class:`~ninetynine.rules.settings.Rules`, one frozen, checked value
``presets``   the shipped rule sets, and house-rules files read from text
``describe``  a readable summary of any rules value
``words``     counting in the rules' words ("a penny", "2 lives")
============  ================================================================

Nothing here moves a game: that is :mod:`ninetynine.engine`.
"""
