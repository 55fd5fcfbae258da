// Every game the client shows, and where its parts are: each kind's folder holds its board
// (`board.js`: `render` and the moves on it), the sentences of its log (`words.js`, one per
// event type) and its rules for players (`rules.js`, both languages, with drawings). Each part
// is loaded when the page first needs it: the board and words with the first game of the kind,
// the rules when they are opened. Adding a game to the client is a folder and a line here.

export const GAMES = {
  burgbaumeister: {
    board: () => import('./burgbaumeister/board.js'),
    words: () => import('./burgbaumeister/words.js'),
    rules: () => import('./burgbaumeister/rules.js'),
  },
  wettstreit: {
    board: () => import('./wettstreit/board.js'),
    words: () => import('./wettstreit/words.js'),
    rules: () => import('./wettstreit/rules.js'),
  },
  'space-builder': {
    board: () => import('./space-builder/board.js'),
    words: () => import('./space-builder/words.js'),
    rules: () => import('./space-builder/rules.js'),
  },
  mauerbauer: {
    board: () => import('./mauerbauer/board.js'),
    words: () => import('./mauerbauer/words.js'),
    rules: () => import('./mauerbauer/rules.js'),
  },
  carcassonne: {
    board: () => import('./carcassonne/board.js'),
    words: () => import('./carcassonne/words.js'),
    rules: () => import('./carcassonne/rules.js'),
  },
};
