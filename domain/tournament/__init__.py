"""Tournaments (design §10, docs/rules/tournaments.md): duplicate deals, Sit & Go and Swiss,
as one aggregate per event in its own stream, decided in the Decider shape like a table.

* ``events`` — the commands and events (``TournamentCreated``, ``EntryAccepted``,
  ``TournamentStarted``, ``RoundPaired``, ``TableFinished``, ``BoardOpened``, ``RoundEnded``,
  ``TournamentEnded``);
* ``formats`` — what each format asks of a game: entries (sides), the tables' options;
* ``boards`` — a board's deck, salt and commitment, drawn from the event's secret;
* ``movement`` — the Mitchell movement as data, and its check;
* ``swiss`` — Swiss pairing by score groups, no repeats where possible, byes, seat balance;
* ``scoring`` — victory points, chips against the field, match points, the standings;
* ``decide`` — ``decide(state, command)``, ``evolve(state, event)``;
* ``embargo`` — which table belongs to which board (the one rule every reader asks).
"""
