"""The lobby through the Python client generated from openapi/openapi.json (tests/pyclient/run):
two accounts register and log in, one creates a game, the other joins it calling the generated
`join` without a body, as the spec's optional request body allows. Exits non-zero on any
difference. Usage: lobby.py BASE_URL (PYTHONPATH must hold the generated baumeister_client)."""

import sys

from baumeister_client import AuthenticatedClient, Client
from baumeister_client.api.accounts import login, register
from baumeister_client.api.games import create, join
from baumeister_client.models import AccountCreated, Credentials, GameSummary, NewAccount, NewGame
from baumeister_client.models.lifecycle import Lifecycle
from baumeister_client.models.new_game_kind import NewGameKind


def expect(response, status, kind, what):
    if response.status_code != status or not isinstance(response.parsed, kind):
        sys.exit(f"{what}: {response.status_code} {response.content!r}")
    return response.parsed


def player(url, name):
    """Registers `name` and returns a client authenticated as it."""
    anonymous = Client(base_url=url)
    password = f"password-of-{name}"
    expect(register.sync_detailed(client=anonymous, body=NewAccount(name=name, password=password)),
           201, AccountCreated, f"register {name}")
    token = expect(login.sync_detailed(client=anonymous, body=Credentials(name=name, password=password)),
                   200, object, f"log in {name}").token
    return AuthenticatedClient(base_url=url, token=token)


def main(url):
    ada, bea = player(url, "ada"), player(url, "bea")
    game = expect(create.sync_detailed(client=ada, body=NewGame(kind=NewGameKind.BURGBAUMEISTER, seats=2)),
                  201, GameSummary, "create")
    if game.status != Lifecycle.OPEN:
        sys.exit(f"a new game of two with one seat taken is open, not {game.status}")
    # The point of this test: no body at all.
    joined = expect(join.sync_detailed(game.id, client=bea), 200, GameSummary, "join without a body")
    if joined.status != Lifecycle.ACTIVE or len(joined.seats) != 2:
        sys.exit(f"after the join: {joined.status}, {len(joined.seats)} seats")
    print(f"generated Python client: game {joined.id} created and joined without a body")


if __name__ == "__main__":
    main(sys.argv[1])
