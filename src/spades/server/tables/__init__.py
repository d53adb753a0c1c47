"""Games with friends: a table whose seats are people or bots. ``service.py``
seats people and applies any seat's moves, ``live.py`` is what only the serving
process keeps (sockets, presence, recent events, deadlines), ``pushes.py`` sends
each seat its update and sets the stand-in's wake-ups, ``table_feed.py`` hears
the changes other server processes make, ``views.py`` builds what a seat is
sent, ``routes.py`` is the thin HTTP and WebSocket layer."""
