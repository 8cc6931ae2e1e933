"""The DAG build: a game's states, joined and ordered into layers, written, self-checked, and packed.

:mod:`.games` says what each game's tables hold, :mod:`.states` enumerates a layer's
states, :mod:`.join` merges equivalent ones, :mod:`.order` puts the hot ones first,
:mod:`.write` stages and publishes the files, :mod:`.pipeline` runs those stages per
game, :mod:`.selfcheck` checks the result against the oracles, :mod:`.bundle` packs a
set into one file and :mod:`.wheel` makes the bundle a wheel of the runtime carries.
"""
