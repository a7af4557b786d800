"""Play against the bots: a game session (:mod:`.session`), the terminal game (:mod:`.terminal`,
``madang play``) and the local web app (:mod:`.web`, ``madang serve``)."""
