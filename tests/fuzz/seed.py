"""Gives the fuzzed server something to fuzz: accounts, a started game of every kind with a few
moves played, and an open game. Prints the fuzzer's token, then writes schemathesis' config
(the template beside this file, with the game ids filled in). Standard library only.

Usage: seed.py BASE_URL TEMPLATE OUT
"""

import json
import sys
import urllib.error
import urllib.request

BASE, TEMPLATE, OUT = sys.argv[1:4]


def call(method, path, token=None, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(BASE + path, data=data, method=method)
    if data is not None:
        request.add_header("Content-Type", "application/json")
    if token:
        request.add_header("Authorization", "Bearer " + token)
    try:
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status, json.loads(response.read() or b"null")
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read() or b"null")


def ok(result, what):
    status, body = result
    if status >= 300:
        sys.exit(f"seeding failed: {what}: {status} {body}")
    return body


def player(name):
    password = "password-of-" + name
    ok(call("POST", "/v1/accounts", body={"name": name, "password": password}), "register " + name)
    return ok(call("POST", "/v1/tokens", body={"name": name, "password": password}), "log in " + name)["token"]


names = ["fuzzer", "ada", "bea", "cyd", "dora"]
tokens = {name: player(name) for name in names}
games = []
for kind in ok(call("GET", "/v1/kinds"), "kinds"):
    seats = kind["min_seats"]
    game = ok(
        call("POST", "/v1/games", tokens["fuzzer"], {"kind": kind["kind"], "seats": seats}),
        "create " + kind["kind"],
    )
    for name in names[1:seats]:
        ok(call("POST", f"/v1/games/{game['id']}/join", tokens[name]), "join")
    games.append(game["id"])
    # A few moves, so that logs, replays and audits have something in them.
    for _ in range(4):
        for name in names[:seats]:
            moves = ok(call("GET", f"/v1/games/{game['id']}/moves", tokens[name]), "moves")["moves"]
            if moves:
                ok(call("POST", f"/v1/games/{game['id']}/commands", tokens[name], moves[0]), "command")
                break
# One the fuzzer may join.
open_game = ok(call("POST", "/v1/games", tokens["ada"], {"kind": "burgbaumeister", "seats": 4}), "open game")
games.append(open_game["id"])

with open(TEMPLATE) as f:
    config = f.read().replace("@GAMES@", ", ".join(str(g) for g in games))
with open(OUT, "w") as f:
    f.write(config)
print(tokens["fuzzer"])
