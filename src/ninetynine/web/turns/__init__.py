"""Turn-based tables: the stored turn and its deadline (so a restarted server, or another
process, plays the takeover of a missed clock), the "your turn" notifications (e-mail,
a club's webhook) with their unsubscribe links, and each account's list of its games."""
