"""Questions people argue about, answered in games: simulations of many games for any rule
sets, player counts and line-ups of bots, their rows as tables, and the statistics and
reports drawn from them (``docs/analysis.md``)."""
