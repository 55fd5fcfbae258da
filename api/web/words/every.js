// Events every kind has (the server's own, beside the games' rules): a take-back (docs/api.md, "Undo").
export default {
  CommandTakenBack: (e, c) => c.s('CommandTakenBack', { who: c.name(e.seat), from: e.from_version, to: e.to_version }),
};
