"""Results over revisions: the store of runs (store), its series and their change points and
gate (changes), and the trend page (page, page.js).
Imports analysis, records and the base modules, nothing of lava or the commands."""
