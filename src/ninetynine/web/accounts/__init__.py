"""Accounts, optional and without passwords: a name, its passkeys (WebAuthn) and a recovery
code, with sessions in a cookie. Guests play as they always have.

- :mod:`.store`: the rows (accounts, passkeys, sessions, challenges) in the server's storage;
- :mod:`.passkeys`: the WebAuthn ceremonies (the ``webauthn`` library) and recovery codes;
- :mod:`.service`: the flows (sign up, sign in, recover, sign out, delete) within the limits.

The routes are :mod:`ninetynine.web.routes.accounts`; docs/server.md ("Accounts") says what
is stored and why.
"""
