// hexbee web: the page. Plain JavaScript, no build step, nothing fetched but
// this server's own API (engine/web/app.py).
//
// The server draws the board (engine/svg.py) with every legal destination
// marked; the page shows the marks of the piece selected. An action is a
// MoveString of the engine's `validmoves` with its piece and cells: clicking a
// piece (on the board or in a hand) selects it, clicking one of its marked cells
// plays the move that goes there (or asks which, when several do), and actions
// that go to no cell (a pass) are buttons of their own.
"use strict";

const $ = (id) => document.getElementById(id);

const page = {
  gameId: null,
  state: null,
  flipped: false,
  viewing: null, // the ply shown when looking at an earlier position
  selected: null, // the piece whose actions are shown
  paused: false, // the engine does not start its own move after Stop
  starting: false, // a search request is in flight
  socket: null,
  fetching: false,
  refetch: false,
  pending: 0, // requests in flight
};

async function api(method, path, body) {
  page.pending += 1;
  busy();
  try {
    const options = { method, headers: {} };
    if (body !== undefined) {
      options.headers["Content-Type"] = "application/json";
      options.body = JSON.stringify(body);
    }
    const response = await fetch(path, options);
    let data = null;
    try {
      data = await response.json();
    } catch (error) {
      data = { error: `The server answered ${response.status} without a reason.` };
    }
    if (!response.ok) {
      throw new Error(data.error || `The server answered ${response.status}.`);
    }
    return data;
  } finally {
    page.pending -= 1;
    busy();
  }
}

function busy() {
  document.body.dataset.busy = page.pending > 0 || page.fetching ? "1" : "0";
}

function say(text, kind) {
  const box = $("message");
  box.textContent = text || "";
  box.className = kind || (text ? "error" : "");
}

function query() {
  const parts = [`flipped=${page.flipped ? 1 : 0}`];
  if (page.viewing !== null) parts.push(`ply=${page.viewing}`);
  return parts.join("&");
}

function gamePath(suffix) {
  return `/api/games/${encodeURIComponent(page.gameId)}${suffix || ""}`;
}

// --- Loading and drawing ---------------------------------------------------------

async function refresh() {
  if (page.fetching) {
    page.refetch = true;
    return;
  }
  page.fetching = true;
  busy();
  try {
    do {
      page.refetch = false;
      render(await api("GET", `${gamePath()}?${query()}`));
    } while (page.refetch);
  } catch (error) {
    say(error.message);
  } finally {
    page.fetching = false;
    busy();
  }
}

function render(state) {
  // Answers may cross: one drawn from an older version of the game is stale.
  if (page.state && state.id === page.state.id && state.version < page.state.version) return;
  page.state = state;
  document.body.dataset.gameString = state.game_string;
  document.body.dataset.ply = String(state.ply);
  $("board").innerHTML = state.svg;
  const status = state.result
    ? `${state.game_type}, turn ${state.turn_number}: ${state.result}`
    : `${state.game_type}, turn ${state.turn_number}: ${state.to_move} to move` +
      (state.double_turn ? `; ${state.double_turn}` : "");
  $("status").textContent = status;
  const text = $("gamestring");
  if (document.activeElement !== text || text.dataset.shown !== state.game_string) {
    text.value = state.game_string;
    text.dataset.shown = state.game_string;
    markRefused(text, "");
  }
  if ($("game-type").value !== state.game_type) $("game-type").value = state.game_type;
  renderMoves(state);
  renderOtherActions(state);
  renderSearch(state.search);
  $("viewing").hidden = state.viewing === null;
  $("viewing-ply").textContent = state.viewing === null ? "" : String(state.viewing);
  const running = Boolean(state.search && state.search.running);
  $("stop").disabled = !running;
  $("engine-move").disabled = running || Boolean(state.result);
  $("undo").disabled = state.ply === 0;
  if (page.selected && !state.actions.some((a) => a.piece === page.selected)) page.selected = null;
  showSelection();
  hideChoices();
  driveEngine(state);
}

function renderMoves(state) {
  const list = $("moves");
  list.textContent = "";
  const shown = state.viewing === null ? state.ply : state.viewing;
  let current = null;
  state.moves.forEach((move, index) => {
    // Numbered by turn, as the GameString's turns are: "3. wQ -wS1", "3... bQ bS1-".
    const item = document.createElement("li");
    const turn = Math.floor(index / 2) + 1;
    item.textContent = `${turn}${index % 2 === 0 ? "." : "..."} ${move}`;
    item.dataset.ply = String(index + 1);
    item.dataset.move = move;
    if (index + 1 === shown) {
      item.className = "current";
      current = item;
    }
    item.addEventListener("click", () => view(index + 1));
    list.appendChild(item);
  });
  if (current) current.scrollIntoView({ block: "nearest" });
}

function renderOtherActions(state) {
  const box = $("other-actions");
  box.textContent = "";
  for (const action of state.actions) {
    if (action.to !== null) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "action";
    button.dataset.move = action.move;
    button.textContent = action.move === "pass" ? "Pass (no other move)" : action.move;
    button.addEventListener("click", () => play(action.move));
    box.appendChild(button);
  }
}

// A line of moves from ply `ply`, numbered by turns as a game record is
// ("12. wQ wS1- bA1 -wQ 13. ...", "12... bA1 -wQ" from Black's move), each
// MoveString in a span of its own, since MoveStrings have spaces in them.
function renderLine(box, moves, ply) {
  box.textContent = "";
  moves.forEach((move, i) => {
    const at = ply + i;
    if (i === 0 || at % 2 === 0) {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${Math.floor(at / 2) + 1}.${at % 2 ? ".." : ""}`;
      box.appendChild(number);
    }
    const text = document.createElement("span");
    text.className = "move";
    text.textContent = move;
    box.appendChild(text);
  });
}

function renderSearch(search) {
  const shown = search && search.current;
  $("search-depth").textContent = shown && search.depth !== null ? String(search.depth) : "-";
  $("search-score").textContent = shown && search.score_text ? search.score_text : "-";
  renderLine($("search-pv"), shown ? search.pv : [], shown ? search.ply : 0);
  const label = !search ? "" : search.running ? (search.mode === "play" ? "engine thinking" : "analysing") : "";
  $("search").dataset.running = search && search.running ? "1" : "0";
  $("search").dataset.mode = search ? search.mode : "";
  $("search").title = label;
  document.body.classList.toggle("thinking", Boolean(search && search.running));
}

function view(ply) {
  page.viewing = page.state && ply >= page.state.ply ? null : ply;
  page.selected = null;
  refresh();
}

// --- Selecting and playing ---------------------------------------------------------

function actionsOf(piece) {
  return page.state ? page.state.actions.filter((a) => a.piece === piece) : [];
}

function showSelection() {
  const board = $("board");
  const cells = new Set(actionsOf(page.selected).map((a) => a.to));
  for (const mark of board.querySelectorAll(".highlight")) {
    mark.classList.toggle("shown", cells.has(mark.dataset.cell));
  }
  for (const node of board.querySelectorAll("g.piece, g.hand")) {
    const pieces = node.dataset.piece ? [node.dataset.piece] : (node.dataset.pieces || "").split(" ");
    node.classList.toggle("selected", page.selected !== null && pieces.includes(page.selected));
  }
  document.body.dataset.selected = page.selected || "";
  // The selected piece's actions of other kinds than a placement or a move (the
  // fan pieces' flips, stings, ...): a button each, named by its kind.
  const box = $("piece-actions");
  box.textContent = "";
  for (const action of actionsOf(page.selected)) {
    if (action.to === null || ["place", "move", "throw"].includes(action.kind)) continue;
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = action.move;
    button.textContent = `${action.kind}: ${action.move}`;
    button.addEventListener("click", () => play(action.move));
    box.appendChild(button);
  }
}

function select(piece) {
  page.selected = piece;
  hideChoices();
  showSelection();
}

function onBoardClick(event) {
  say("");
  if (!page.state || page.state.viewing !== null) return;
  const mark = event.target.closest(".highlight.shown");
  if (mark && page.selected) {
    const moves = actionsOf(page.selected).filter((a) => a.to === mark.dataset.cell);
    if (moves.length === 1) play(moves[0].move);
    else if (moves.length > 1) choose(moves);
    return;
  }
  const piece = event.target.closest("g.piece");
  const hand = event.target.closest("g.hand");
  let candidates = [];
  if (piece) candidates = [piece.dataset.piece];
  else if (hand) candidates = (hand.dataset.pieces || "").split(" ");
  const movable = candidates.find((name) => actionsOf(name).length > 0);
  if (movable && movable !== page.selected) {
    select(movable);
  } else {
    if (candidates.length && !movable) say(`${candidates[0]} has no legal move now.`, "note");
    select(null);
  }
}

function choose(moves) {
  const buttons = $("choice-buttons");
  buttons.textContent = "";
  for (const action of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.dataset.move = action.move;
    button.textContent = action.move;
    button.addEventListener("click", () => play(action.move));
    buttons.appendChild(button);
  }
  $("choices").hidden = false;
}

function hideChoices() {
  $("choices").hidden = true;
}

async function play(move) {
  say("");
  page.selected = null;
  try {
    render(await api("POST", `${gamePath("/play")}?${query()}`, { move }));
  } catch (error) {
    say(error.message);
    showSelection();
  }
}

// --- The engine -------------------------------------------------------------------------

function player(color) {
  return $(color === "White" ? "player-white" : "player-black").value;
}

function limit() {
  const value = Number($("limit-value").value);
  if ($("limit-kind").value === "depth") return { depth: Math.max(1, Math.round(value) || 1) };
  return { seconds: value > 0 ? value : 1 };
}

// Start the engine's move when it is to play, or the analysis when it is asked for.
function driveEngine(state) {
  if (page.starting || state.result || state.viewing !== null || page.viewing !== null) return;
  if (state.search && state.search.running) return;
  if (player(state.to_move) === "engine" && !page.paused) {
    startSearch({ ...limit(), play: true }, true);
  } else if ($("analyse").checked && player(state.to_move) === "human") {
    const done = state.search && state.search.mode === "analyse" && state.search.current;
    if (!done) startSearch({ play: false }, true);
  }
}

async function startSearch(body, quiet) {
  if (page.starting) return;
  page.starting = true;
  let state = null;
  try {
    state = await api("POST", `${gamePath("/search")}?${query()}`, body);
  } catch (error) {
    if (!quiet || !/already running/.test(error.message)) say(error.message);
  } finally {
    page.starting = false;
  }
  if (state !== null) render(state);
}

// Stop the search. The Stop button also pauses an engine that is to play; turning
// Analyse off stops only the analysis.
async function stop(pause = true) {
  if (pause) page.paused = true;
  try {
    render(await api("POST", `${gamePath("/stop")}?${query()}`, {}));
  } catch (error) {
    say(error.message);
  }
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}${gamePath("/events")}`);
  page.socket = socket;
  socket.addEventListener("message", (message) => {
    const event = JSON.parse(message.data);
    if (event.type === "progress" && page.state) {
      renderSearch({ ...event });
      refresh(); // the line's arrows
    } else if (event.type === "searched") {
      if (event.error) say(event.error);
      refresh();
    } else if (event.type === "changed") {
      if (!page.state || event.game_string !== page.state.game_string) refresh();
    }
  });
  socket.addEventListener("close", () => {
    if (page.socket === socket) setTimeout(connect, 1000);
  });
}

// --- Controls ------------------------------------------------------------------------------

function markRefused(box, reason) {
  box.classList.toggle("refused", Boolean(reason));
  box.setAttribute("aria-invalid", reason ? "true" : "false");
  box.title = reason ? `Not loaded: ${reason}` : "";
}

async function command(path, body) {
  say("");
  page.viewing = null;
  page.selected = null;
  try {
    render(await api("POST", `${gamePath(path)}?${query()}`, body));
    return true;
  } catch (error) {
    say(error.message);
    return false;
  }
}

function undoCount() {
  // Against the engine, take back its answer too, or it would play again at once.
  const state = page.state;
  if (!state || state.ply < 2 || state.result) return 1;
  const mover = state.to_move;
  const other = mover === "White" ? "Black" : "White";
  return player(mover) === "human" && player(other) === "engine" ? 2 : 1;
}

function wire() {
  $("board").addEventListener("click", onBoardClick);
  $("new-game").addEventListener("click", () => command("/load", { game: $("game-type").value }));
  // A refused GameString stays in the box to be corrected, marked as refused
  // (the board still shows the game it had) until it is edited or replaced.
  $("load").addEventListener("click", async () => {
    const box = $("gamestring");
    const loaded = await command("/load", { game: box.value });
    markRefused(box, loaded ? "" : $("message").textContent);
  });
  $("gamestring").addEventListener("input", () => markRefused($("gamestring"), ""));
  $("undo").addEventListener("click", () => {
    page.paused = true;
    command("/undo", { count: undoCount() });
  });
  $("flip").addEventListener("click", () => {
    page.flipped = !page.flipped;
    refresh();
  });
  $("copy").addEventListener("click", async () => {
    const text = page.state ? page.state.game_string : "";
    try {
      await navigator.clipboard.writeText(text);
    } catch (error) {
      $("gamestring").select();
      document.execCommand("copy");
    }
    say("GameString copied.", "note");
  });
  $("move-form").addEventListener("submit", (event) => {
    event.preventDefault();
    const move = $("move-text").value.trim();
    if (move) play(move).then(() => { $("move-text").value = ""; });
  });
  $("back-to-game").addEventListener("click", () => view(Infinity));
  $("engine-move").addEventListener("click", () => {
    page.paused = false;
    startSearch({ ...limit(), play: true }, false);
  });
  $("stop").addEventListener("click", () => stop());
  $("analyse").addEventListener("change", () => {
    const search = page.state && page.state.search;
    if (!$("analyse").checked && search && search.running && search.mode === "analyse") stop(false);
  });
  for (const id of ["player-white", "player-black", "analyse"]) {
    $(id).addEventListener("change", () => {
      page.paused = false;
      if (page.state) driveEngine(page.state);
    });
  }
  $("limit-kind").addEventListener("change", () => {
    const depth = $("limit-kind").value === "depth";
    $("limit-value").step = depth ? "1" : "0.1";
    $("limit-value").min = depth ? "1" : "0.1";
    $("limit-value").value = depth ? "3" : "1";
  });
}

async function start() {
  wire();
  try {
    const info = await api("GET", "/api/info");
    $("engine-id").textContent = info.id.replace(/^id /, "");
    // The official game types first, then those with fan pieces, each a group.
    for (const [label, types] of [["Official", info.game_types], ["Fan pieces", info.fan_game_types]]) {
      const group = document.createElement("optgroup");
      group.label = label;
      for (const type of types) {
        const option = document.createElement("option");
        option.value = type;
        option.textContent = type;
        group.appendChild(option);
      }
      $("game-type").appendChild(group);
    }
    const wanted = new URLSearchParams(location.hash.slice(1)).get("game");
    let state = null;
    if (wanted) {
      page.gameId = wanted;
      try {
        state = await api("GET", `${gamePath()}?${query()}`);
      } catch (error) {
        say(`${error.message} A new game was started.`, "note");
      }
    }
    if (state === null) {
      const type = info.game_types.includes("Base+MLP") ? "Base+MLP" : info.game_types[0];
      state = await api("POST", "/api/games", { game: type });
      page.gameId = state.id;
      history.replaceState(null, "", `#game=${encodeURIComponent(state.id)}`);
    }
    render(state);
    connect();
    document.body.dataset.ready = "1";
  } catch (error) {
    say(error.message);
  }
}

start();
