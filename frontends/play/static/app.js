// madang's play page: set up a game, draw the table from the server's seat view, send moves.
// Plain browser JavaScript, no build step and nothing fetched from elsewhere.  Every move button
// carries data-action (the move id the server listed) and data-kind; the server checks every move.
"use strict";

const $ = (sel, root = document) => root.querySelector(sel);

function el(tag, attrs = {}, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : String(v));
  }
  for (const kid of kids.flat(Infinity)) {
    if (kid === null || kid === undefined || kid === false) continue;
    e.append(kid instanceof Node ? kid : document.createTextNode(String(kid)));
  }
  return e;
}

const ui = { catalog: null, game: null, held: [], error: "", gone: false, pick: null, rule: null, focus: null };

async function api(method, path, body) {
  const opts = { method, headers: {} };
  if (body !== undefined) {
    opts.headers["Content-Type"] = "application/json";
    opts.body = JSON.stringify(body);
  }
  const r = await fetch(path, opts);
  const data = r.status === 204 ? null : await r.json();
  if (!r.ok) {
    const err = new Error((data && data.error) || r.statusText);
    err.status = r.status;
    throw err;
  }
  return data;
}

function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

function busy(on) { document.body.dataset.busy = on ? "1" : "0"; }

function gameInfo(name) { return ui.catalog.games.find((g) => g.name === name); }

// ------------------------------------------------------------------ setup
function setupGame(name) {
  const info = gameInfo(name);
  ui.pick = { game: name, bots: [info.default_bot], seat: 0 };
  drawSetup();
}

function drawSetup() {
  const pick = ui.pick, info = gameInfo(pick.game);
  const choice = $("#game-choice");
  choice.replaceChildren(...ui.catalog.games.map((g) => el("button", {
    type: "button", role: "radio", "aria-checked": g.name === pick.game ? "true" : "false",
    class: "game-card" + (g.name === pick.game ? " chosen" : ""), "data-game": g.name,
    onclick: () => setupGame(g.name),
  }, el("strong", {}, g.title), el("span", {}, blurb(g)))));
  const rows = pick.bots.map((b, k) => el("div", { class: "row bot-row" },
    el("label", {}, `Bot ${k + 1} `,
      el("select", { class: "bot", onchange: (e) => { pick.bots[k] = e.target.value; drawSetup(); } },
        info.bots.map((o) => el("option", { value: o.name, selected: o.name === b, title: o.description }, o.name)))),
    el("span", { class: "hint" }, (info.bots.find((o) => o.name === b) || {}).description || ""),
    pick.bots.length + 1 > info.min_seats
      ? el("button", { type: "button", class: "small", onclick: () => { pick.bots.splice(k, 1); drawSetup(); } }, "remove")
      : null));
  $("#opponents").replaceChildren(
    rows.length ? el("p", { class: "hint" }, "Opponents, in seat order after you:") : el("p", { class: "hint" }, "Solitaire: no bots."),
    ...rows);
  $("#add-bot").hidden = pick.bots.length + 1 >= info.max_seats;
  const seats = pick.bots.length + 1;
  pick.seat = Math.min(pick.seat, seats - 1);
  $("#seat").replaceChildren(...Array.from({ length: seats }, (_, s) =>
    el("option", { value: s, selected: s === pick.seat }, s === 0 ? "0 (first)" : String(s))));
  $("#setup-error").textContent = "";
}

function blurb(g) {
  const seats = g.min_seats === g.max_seats ? `${g.min_seats} players` : `${g.min_seats}-${g.max_seats} players`;
  return `${g.summary} · ${seats}`;
}

async function startGame() {
  const pick = ui.pick;
  const body = { game: pick.game, bots: pick.bots, seat: pick.seat };
  // A seed goes as a string: a JavaScript number is exact only up to 2**53.
  const seed = $("#seed").value.trim();
  if (seed !== "") body.seed = seed;
  busy(true);
  try {
    ui.game = await api("POST", "/api/games", body);
    ui.held = []; ui.error = ""; ui.gone = false; ui.rule = null;
    location.hash = "g=" + ui.game.id;
    draw();
    window.scrollTo(0, 0);
  } catch (e) {
    ui.game = null;
    draw();
    $("#setup-error").textContent = e.message;
  } finally { busy(false); }
}

async function send(action) {
  if (document.body.dataset.busy === "1") return;
  busy(true);
  try {
    ui.game = await api("POST", `/api/games/${ui.game.id}/moves`, { action });
    ui.held = []; ui.error = "";
  } catch (e) {
    ui.error = e.message;
    ui.gone = e.status === 404;
  } finally {
    draw();
    busy(false);
  }
}

async function leave() {
  // Forget the game on the server too, so that it frees its place at once.
  const g = ui.game;
  if (g && !ui.gone) {
    try { await api("DELETE", `/api/games/${g.id}`); } catch (e) { /* already gone */ }
  }
  ui.game = null; ui.gone = false; ui.error = "";
  history.replaceState(null, "", location.pathname);
}

async function toSetup() {
  busy(true);
  try { await leave(); } finally { busy(false); }
  draw();
  window.scrollTo(0, 0);
}

async function restart(seed) {
  // A new game with the same table (the same seed too, when given), after leaving this one.
  const g = ui.game;
  ui.pick = { game: g.game, bots: g.players.filter((p) => !p.human).map((p) => p.name), seat: g.seat };
  busy(true);
  await leave();
  $("#seed").value = seed || "";
  await startGame();
}

// ------------------------------------------------------------------ common
function moveButton(m, label, cls = "") {
  return el("button", { type: "button", class: `move ${cls}`.trim(), "data-action": m.id, "data-kind": m.kind,
                        title: m.text, onclick: () => send(m.id) }, label);
}

function recentEvents(g) {
  // The bots' moves since the person's last move (all of them before the person's first move).
  let last = -1;
  for (const e of g.log) if (e.human) last = e.n;
  return g.log.filter((e) => e.n > last && !e.human);
}

function drawStatus(g) {
  const players = g.players.map((p) => el("span", {
    class: "player" + (p.human ? " you" : "") + (!g.over && p.seat === g.to_move ? " turn" : ""),
  }, `seat ${p.seat}: ${p.name}`));
  let line;
  if (g.over) line = el("strong", {}, "Game over");
  else line = el("strong", {}, "Your turn: ", board(g).hint(g));
  const recent = recentEvents(g);
  const since = recent.length && !g.over
    ? el("div", { class: "recent-box" }, el("span", { class: "label" }, "Bot moves since yours:"),
        el("ul", {}, recent.slice(-6).map((e) => el("li", {}, el("b", {}, e.player), ": ", e.text))))
    : null;
  const seed = el("span", { class: "seed hint", id: "seed-shown" },
    g.seed === null ? "seed: shown at the end" : `seed ${g.seed}`);
  const controls = g.over ? null : el("span", { class: "game-controls" },
    el("button", { type: "button", id: "new-game", onclick: () => restart() }, "New game"),
    el("button", { type: "button", id: "leave", onclick: toSetup }, "Leave"));
  const parts = [el("div", { class: "row" }, el("span", { class: "title" }, g.title), ...players, seed, controls),
                 el("p", { class: "turn-line" }, line), since, g.over ? drawResult(g) : null];
  $("#status").replaceChildren(...parts.filter(Boolean));
}

function drawResult(g) {
  const rows = g.standings.map((s) => el("tr", { class: s.winner ? "winner" : "" },
    el("td", {}, `seat ${s.seat}`), el("td", {}, s.player), el("td", { class: "num" }, s.points),
    el("td", {}, s.winner ? "★ winner" : "")));
  const line = board(g).resultLine(g);
  const extra = line ? el("p", {}, line) : null;
  return el("div", { id: "result" },
    el("h3", {}, "Final scores"),
    el("table", { class: "standings" }, el("thead", {}, el("tr", {}, el("th", {}, "seat"), el("th", {}, "player"),
      el("th", {}, gameInfo(g.game).score_label), el("th", {}, ""))), el("tbody", {}, rows)),
    extra,
    el("div", { class: "row" }, el("button", { type: "button", class: "primary", id: "again", onclick: () => restart() }, "Play again"),
      el("button", { type: "button", id: "replay", onclick: () => restart(g.seed) }, `Replay seed ${g.seed}`),
      el("button", { type: "button", id: "other", onclick: toSetup }, "Other game")));
}

function drawLog(g) {
  const recent = new Set(recentEvents(g).map((e) => e.n));
  const items = g.log.map((e) => el("li", { class: (e.human ? "you" : "bot") + (recent.has(e.n) ? " recent" : "") },
    el("b", {}, e.human ? "You" : e.player), ": ", e.text));
  const log = $("#log");
  log.replaceChildren(...items);
  log.scrollTop = log.scrollHeight;
}

function drawMoveList(g) {
  $("#move-list").replaceChildren(...g.moves.map((m) => moveButton(m, `${m.id}: ${m.text}`, "plain")));
}

// ------------------------------------------------------------------ dice
const PIPS = { 1: [4], 2: [0, 8], 3: [0, 4, 8], 4: [0, 2, 6, 8], 5: [0, 2, 4, 6, 8], 6: [0, 2, 3, 5, 6, 8] };

function die(value, { cls = "", onclick = null, label = "", index = null, pressed = false } = {}) {
  const cells = Array.from({ length: 9 }, (_, k) => el("span", { class: PIPS[value].includes(k) ? "pip" : "" }));
  const attrs = { class: `die ${cls}`.trim(), "aria-label": `${label} showing ${value}`, "data-value": value,
                  "data-index": index };
  if (onclick) {
    // A die is a toggle button: the mouse, Enter and Space all hold it (and keep the focus on it).
    const toggle = () => { ui.focus = `.die[data-index="${index}"]`; onclick(); };
    Object.assign(attrs, { role: "button", tabindex: 0, "aria-pressed": pressed ? "true" : "false", onclick: toggle,
      onkeydown: (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); toggle(); } } });
  }
  return el("div", attrs, ...cells);
}

// ------------------------------------------------------------------ any game
// The board of a game the page has no drawing of its own for (its descriptor names no board):
// the server's text of the seat view and a button per legal move.
function drawGeneric(g) {
  return el("div", { class: "board generic" },
    el("pre", { class: "felt text-view" }, g.text),
    g.your_turn ? el("div", { class: "row controls" }, g.moves.map((m) => moveButton(m, m.text))) : null);
}

function genericHint(g) { return g.hint; }

function genericResultLine(g) {
  // What the result says besides the standings' numbers: how the game ended, where it names that.
  const r = g.result || {};
  return r.reason ? `Ended by ${r.reason.replace(/_/g, " ")}.` : "";
}

// ------------------------------------------------------------------ Yacht
function yachtHint(g) {
  const v = g.view;
  return v.rolls_left ? `click dice to hold them, then roll (${v.rolls_left} left), or score a category` : "score a category";
}

function drawYacht(g) {
  const v = g.view, ref = gameInfo(g.game).reference, mine = g.your_turn;
  const canHold = mine && v.rolls_left > 0;
  const dice = v.dice.map((d, i) => el("div", { class: "die-slot" },
    die(d, { cls: ui.held[i] ? "held" : "", label: `die ${i + 1}`, index: i, pressed: !!ui.held[i],
             onclick: canHold ? () => { ui.held[i] = !ui.held[i]; draw(); } : null }),
    el("span", { class: "die-tag" }, ui.held[i] ? "held" : (canHold ? "click to hold" : ""))));
  let rollId = 0;
  for (let i = 0; i < 5; i++) if (!ui.held[i]) rollId |= 1 << i;
  const roll = g.moves.find((m) => m.kind === "reroll" && m.id === rollId);
  const nroll = 5 - ui.held.filter(Boolean).length;
  const rollBtn = roll
    ? moveButton(roll, `Roll ${nroll} ${nroll === 1 ? "die" : "dice"} (${v.rolls_left} left)`, "primary")
    : el("button", { type: "button", disabled: true }, v.rolls_left ? "Hold fewer dice to roll" : "No rolls left");
  // Cells the bots wrote since the person's last move.
  const fresh = new Set(recentEvents(g).filter((e) => e.kind === "score").map((e) => `${e.seat}:${e.details.category}`));
  const head = el("tr", {}, el("th", {}, "category"), g.players.map((p) =>
    el("th", { class: (p.human ? "you" : "") + (p.seat === v.to_move && !g.over ? " turn" : "") }, p.human ? "you" : p.name)));
  const rows = ref.categories.map((name, c) => el("tr", {}, el("th", {}, name), g.players.map((p) => {
    const val = v.sheets[p.seat][c];
    const m = p.human && mine ? g.moves.find((x) => x.kind === "score" && x.category === c) : null;
    if (m) return el("td", { class: "open" }, moveButton(m, `+${m.points}`, m.points ? "score" : "score zero"));
    return el("td", { class: "num" + (fresh.has(`${p.seat}:${c}`) ? " recent" : "") }, val === null ? "" : val);
  })));
  const total = el("tr", { class: "total" }, el("th", {}, "total"), v.totals.map((t) => el("td", { class: "num" }, t)));
  return el("div", { class: "board yacht" },
    el("div", { class: "felt" },
      el("div", { class: "round" }, g.over ? "final sheets" : `round ${v.round} / ${ref.rounds}`),
      el("div", { class: "dice-row" }, dice),
      mine ? el("div", { class: "row controls" }, rollBtn) : null),
    el("table", { class: "sheet" }, el("thead", {}, head), el("tbody", {}, rows, total)));
}

// ------------------------------------------------------------------ Rainbow Dice
function rainbowHint(g) {
  const v = g.view;
  if (v.phase === "second_card") return "buy a second card for 3 tokens, or decline";
  if (v.phase === "rolling") return `lock dice and reroll (${v.free_rerolls_left} free left), adjust with tokens, buy a card or take tokens`;
  return "adjust or token-reroll dice, then buy a card or take tokens";
}

const COLOURS = ["red", "orange", "yellow", "green", "blue", "purple"];
const RANK_CLASS = ["r-blue", "r-green", "r-yellow", "r-orange", "r-red", "r-purple"];

function drawRainbow(g) {
  const v = g.view, ref = gameInfo(g.game).reference, mine = g.your_turn;
  const rolling = mine && v.phase === "rolling";
  const find = (kind, pred = () => true) => g.moves.find((m) => m.kind === kind && pred(m));
  const dice = v.dice.map((d, i) => {
    const up = find("adjust", (m) => m.die === i && m.delta > 0);
    const down = find("adjust", (m) => m.die === i && m.delta < 0);
    const tok = find("token_reroll", (m) => m.die === i);
    return el("div", { class: "die-slot" },
      die(d, { cls: `c-${COLOURS[i]}` + (ui.held[i] ? " held" : ""), label: `${ref.dice[i]} die`, index: i,
               pressed: !!ui.held[i], onclick: rolling ? () => { ui.held[i] = !ui.held[i]; draw(); } : null }),
      el("span", { class: "die-tag" }, rolling ? (ui.held[i] ? "locked" : "click to lock") : ref.dice[i]),
      el("div", { class: "die-buttons" },
        up ? moveButton(up, "+1", "small") : null, down ? moveButton(down, "−1", "small") : null,
        tok ? moveButton(tok, "reroll (1 token)", "small") : null));
  });
  let rerollId = 0;
  for (let i = 0; i < 6; i++) if (!ui.held[i]) rerollId |= 1 << i;
  const reroll = find("reroll", (m) => m.id === rerollId);
  const stop = find("stop"), take = find("take"), decline = find("decline");
  const controls = mine ? el("div", { class: "row controls" },
    reroll ? moveButton(reroll, `Reroll ${6 - ui.held.filter(Boolean).length} unlocked (free, ${v.free_rerolls_left} left)`, "primary") : null,
    rolling && !reroll ? el("button", { type: "button", disabled: true }, "Unlock a die to reroll") : null,
    stop ? moveButton(stop, "Stop rolling") : null,
    take ? moveButton(take, `Take ${plural(take.tokens, "token")} (ends turn)`) : null,
    decline ? moveButton(decline, "No second card") : null) : null;
  const sat = new Set(v.satisfied);
  const market = ref.ranks.map((rank, r) => el("div", { class: "rank-row" },
    el("span", { class: `rank-name ${RANK_CLASS[r]}` }, `${rank.name} (${rank.base})`),
    ref.hands.map((h, k) => {
      if (h.rank !== r) return null;
      const buy = find("buy", (m) => m.hand === k) || find("second", (m) => m.hand === k);
      const left = v.supply === null ? "∞" : v.supply[k];
      const open = ui.rule === k;
      // The hand's rule opens on a tap or click (a hover tooltip does nothing on a touch screen).
      return el("div", { class: `hand-card ${RANK_CLASS[r]}` + (sat.has(k) ? " sat" : "") + (left === 0 ? " empty" : ""),
                         "data-hand": k },
        el("button", { type: "button", class: "rule-toggle", "aria-expanded": open ? "true" : "false",
                       title: "show the rule", onclick: () => { ui.rule = open ? null : k; draw(); } },
          el("span", { class: "hand-name" }, h.name), el("span", { class: "hand-score" }, h.score)),
        el("span", { class: "hand-left" }, `${left} left`),
        open ? el("p", { class: "hand-rule" }, h.text, el("br"), el("span", { class: "hint" },
          `${h.name_ko}; one throw: 1 in ${(1 / h.probability).toFixed(1)}`)) : null,
        buy ? moveButton(buy, buy.kind === "second" ? `buy 2nd (+${buy.points}, 3 tokens)` : `buy (+${buy.points})`, "small buy") : null,
        buy ? bonusNote(buy) : null);
    })));
  const fresh = new Set(recentEvents(g).filter((e) => e.details.hand !== undefined).map((e) => `${e.seat}:${e.details.hand}`));
  const players = g.players.map((p) => {
    const b = v.breakdown[p.seat];
    const held = v.cards[p.seat].map((n, k) => n ? el("span", {
      class: `chip ${RANK_CLASS[ref.hands[k].rank]}` + (fresh.has(`${p.seat}:${k}`) ? " recent" : "") }, `${ref.hands[k].name} ×${n}`) : null);
    return el("tr", { class: (p.human ? "you" : "") + (p.seat === v.to_move && !g.over ? " turn" : "") },
      el("th", {}, p.human ? "you" : p.name), el("td", { class: "num" }, v.tokens[p.seat]),
      el("td", { class: "num", title: `cards ${b.base} + duplicates ${b.duplicate} + same rank ${b.same_rank} + tokens ${b.tokens}` }, b.total),
      el("td", { class: "held" }, el("div", { class: "chips" }, held)));
  });
  return el("div", { class: "board rainbow" },
    el("div", { class: "felt" },
      el("div", { class: "round" }, g.over ? "game over" : `round ${v.round} / ${ref.rounds} · ${v.phase.replace("_", " ")} phase · die actions ${v.die_actions_used}/3`),
      el("div", { class: "dice-row" }, dice), controls),
    el("table", { class: "players" }, el("thead", {}, el("tr", {}, el("th", {}, "player"), el("th", { class: "num" }, "tokens"),
      el("th", { class: "num" }, "score"), el("th", { class: "cards" }, "cards"))), el("tbody", {}, players)),
    el("div", { class: "market" }, el("h3", {}, "Market (highlighted: your dice satisfy it)"), market));
}

function bonusNote(m) {
  // Why a card is worth more than its printed score: the duplicate and same-rank bonuses.
  if (!m.duplicate_bonus && !m.rank_bonus) return null;
  const parts = [`card ${m.card_points}`];
  if (m.duplicate_bonus) parts.push(`duplicate bonus ${m.duplicate_bonus}`);
  if (m.rank_bonus) parts.push(`same-rank bonus ${m.rank_bonus}`);
  return el("span", { class: "bonus-note" }, `+${m.points} = ${parts.join(" + ")}`);
}

// ------------------------------------------------------------------ Go-Stop
function gostopHint(g) {
  const v = g.view, ref = gameInfo(g.game).reference;
  if (v.decision === "play") return "play a card from your hand";
  if (v.decision === "go_stop") return `you have ${plural(v.scores[g.seat], "point")}: Go or Stop?`;
  const c = v.decision === "hand_choice" ? v.played : v.flipped;
  return `choose which ${ref.cards[c].month_name} card to take`;
}

const KIND_MARK = { bright: "★", animal: "◆", "animal/cup": "◆", ribbon: "▬", junk: "✿", "double junk": "✿✿" };

function card(id, { cls = "", move = null, small = false } = {}) {
  const c = gameInfo("gostop").reference.cards[id];
  const kind = c.kind.replace(/[ /]/g, "-");
  const set = c.picture.includes("hongdan") ? " hongdan" : c.picture.includes("cheongdan") ? " cheongdan"
    : c.picture.includes("chodan") ? " chodan" : c.picture.includes("rain ribbon") ? " rain" : "";
  const body = [el("span", { class: "c-month" }, c.month_name, small ? null : " ", small ? null : el("span", { lang: "ko" }, c.flower_ko)),
    el("span", { class: "c-mark" }, KIND_MARK[c.kind]),
    el("span", { class: "c-kind" }, small ? ({ "double junk": "double", "animal/cup": "cup" }[c.kind] || c.kind) : c.kind),
    small ? null : el("span", { class: "c-pic" }, c.picture)];
  const attrs = { class: `card k-${kind} m-${c.month}${set} ${small ? "mini" : ""} ${cls}`.trim(),
                  title: `${c.label}${c.picture ? " (" + c.picture + ")" : ""} · card ${id}` + (cls.includes("matches") ? " · matches the table" : ""),
                  "data-card": id };
  if (move) {
    return el("button", { ...attrs, type: "button", class: attrs.class + " move", "data-action": move.id,
                          "data-kind": move.kind, onclick: () => send(move.id) }, ...body);
  }
  return el("div", attrs, ...body);
}

function drawGostop(g) {
  const v = g.view, me = g.seat, opp = 1 - me, mine = g.your_turn;
  const byCard = new Map(g.moves.filter((m) => m.card !== undefined).map((m) => [m.card, m]));
  const hot = new Set();
  for (const e of recentEvents(g)) {
    for (const c of [e.details.played, e.details.flipped, ...(e.details.captured || [])]) if (c !== null && c !== undefined) hot.add(c);
  }
  const mark = (c) => (hot.has(c) ? "recent" : "");
  const groups = [["brights", (k) => k === "bright"], ["animals", (k) => k.startsWith("animal")],
                  ["ribbons", (k) => k === "ribbon"], ["junk", (k) => k.endsWith("junk")]];
  const ref = gameInfo(g.game).reference;
  const CUP = 32, th = ref.thresholds;
  const captured = (s) => {
    // Each pile as it scores now: the sake cup sits with the animals or, when it scores more
    // that way, with the junk as 2 units; each group shows its count against where it starts to score.
    const t = v.tallies[s];
    const inGroup = (name, test) => v.captured[s].filter((c) => (c === CUP ? (t.cup === "junk" ? name === "junk" : name === "animals")
                                                                             : test(ref.cards[c].kind)));
    const progress = { brights: `${t.brights}/${th.brights}`, animals: `${t.animals}/${th.animals}`,
                       ribbons: `${t.ribbons}/${th.ribbons}`, junk: `${t.junk}/${th.junk} units` };
    const extra = { animals: t.animals >= th.meong_bak ? " · meong-bak!" : ` · meong-bak at ${th.meong_bak}`, brights: "", ribbons: "", junk: "" };
    return el("div", { class: "captured" }, groups.map(([name, test]) => el("div", { class: "cap-group", "data-group": name },
      el("span", { class: "label" }, `${name} ${progress[name]}${extra[name]}`),
      el("div", { class: "cards" }, inGroup(name, test).map((c) => card(c, { small: true, cls: mark(c) + (c === CUP ? " cup-" + t.cup : "") }))))),
      t.cup ? el("span", { class: "cup-note hint" }, t.cup === "junk" ? "sake cup: counts as 2 junk now" : "sake cup: counts as an animal now") : null);
  };
  const side = (s) => {
    const p = g.players[s];
    const extra = [v.go_count[s] ? `${v.go_count[s]} Go (at ${v.go_score[s]})` : null,
                   v.ppuk_count[s] ? `${v.ppuk_count[s]} ppuk` : null].filter(Boolean).join(", ");
    return el("div", { class: "side-head" + (s === v.to_move && !g.over ? " turn" : "") },
      el("strong", {}, p.human ? "you" : p.name), el("span", { class: "score" }, plural(v.scores[s], "point")),
      extra ? el("span", { class: "hint" }, extra) : null);
  };
  const piles = new Map(v.piles.map((p) => [p.month, p.owner]));
  const months = [...new Set(v.layout.map((c) => ref.cards[c].month))].sort((a, b) => a - b);
  const choosing = mine && (v.decision === "hand_choice" || v.decision === "stock_choice");
  const layout = months.map((m) => el("div", { class: "month" + (piles.has(m) ? " pile" : "") },
    v.layout.filter((c) => ref.cards[c].month === m).map((c) =>
      card(c, { cls: mark(c) + (choosing && byCard.has(c) ? " choice" : ""), move: choosing ? byCard.get(c) : null })),
    piles.has(m) ? el("span", { class: "pile-tag" }, piles.get(m) === null ? "dealt pile" : `ppuk (${g.players[piles.get(m)].name})`) : null));
  const inflight = [["played", v.played], ["flipped", v.flipped]].filter(([, c]) => c !== null);
  const table = el("div", { class: "felt table" },
    el("div", { class: "stock" }, el("div", { class: "card back" }, el("span", {}, v.stock_size)), el("span", { class: "label" }, "stock")),
    el("div", { class: "layout" }, layout.length ? layout : el("span", { class: "hint" }, "the layout is empty")),
    inflight.length ? el("div", { class: "inflight" }, inflight.map(([what, c]) => el("div", {}, el("span", { class: "label" }, what), card(c)))) : null);
  const backs = el("div", { class: "backs" }, Array.from({ length: v.hand_sizes[opp] }, () => el("div", { class: "card back mini" })),
                   el("span", { class: "label" }, `${v.hand_sizes[opp]} in hand`));
  const playing = mine && v.decision === "play";
  const onTable = new Set(v.layout.map((c) => ref.cards[c].month));
  const hand = el("div", { class: "hand" }, v.hand.map((c) => card(c, {
    move: playing ? byCard.get(c) : null, cls: onTable.has(ref.cards[c].month) ? "matches" : "" })));
  const goStop = mine && v.decision === "go_stop" ? el("div", { class: "row controls" },
    moveButton(g.moves.find((m) => m.kind === "go"), `Go (risk it for more)`, "primary"),
    moveButton(g.moves.find((m) => m.kind === "stop"), `Stop and collect ${g.moves.find((m) => m.kind === "stop").payout}`)) : null;
  return el("div", { class: "board gostop" },
    el("div", { class: "side opp" }, side(opp), backs, captured(opp)),
    table,
    el("div", { class: "side me" }, side(me), captured(me), goStop,
       el("div", { class: "label" }, playing ? "your hand: click a card to play it (outlined: it matches a card of the table)" : "your hand"), hand));
}

function gostopResultLine(g) {
  const r = g.view.result, name = (s) => (s === g.seat ? "You" : g.players[s].name);
  if (r.winner === null) return "Nagari: nobody stopped before the cards ran out (a draw).";
  if (r.reason !== "stop") return `${name(r.winner)} won ${r.payout} by ${r.reason.replace("_", " ")}.`;
  const s = r.settlement, baks = ["gwang_bak", "meong_bak", "pi_bak"].filter((b) => s[b]).map((b) => b.replace("_", "-"));
  const how = `${r.last_card ? "won when the last card ended the deal, with" : "stopped with"} ${plural(s.base, "point")}`;
  return `${name(r.winner)} ${how}` + (s.go_count ? `, ${s.go_count} Go → ${s.value}` : "")
    + (baks.length ? `, ${baks.join(" + ")} ×${2 ** baks.length}` : "") + ` = ${r.payout}.`;
}

// ------------------------------------------------------------------ drawing
// The boards the page draws, by the name a game's descriptor gives (the catalog's "board");
// every other game gets the generic board.
const GENERIC = { draw: drawGeneric, hint: genericHint, resultLine: genericResultLine };
const BOARDS = {
  yacht: { draw: drawYacht, hint: yachtHint, resultLine: genericResultLine },
  rainbow_dice: { draw: drawRainbow, hint: rainbowHint, resultLine: genericResultLine },
  gostop: { draw: drawGostop, hint: gostopHint, resultLine: gostopResultLine },
};

function board(g) { return BOARDS[gameInfo(g.game).board] || GENERIC; }

function draw() {
  const g = ui.game;
  $("#setup").hidden = !!g;
  $("#play").hidden = !g;
  document.body.dataset.over = g && g.over ? "1" : "0";
  document.body.dataset.moves = g ? g.log.length : 0;
  document.body.dataset.game = g ? g.game : "";
  if (!g) { if (ui.pick) drawSetup(); return; }
  drawStatus(g);
  $("#board").replaceChildren(board(g).draw(g));
  drawLog(g);
  drawMoveList(g);
  $("#all-moves").hidden = g.over;
  // A game the server no longer has (it expired, or was left elsewhere) can only be replaced.
  $("#move-error").replaceChildren(ui.error, ui.gone
    ? el("button", { type: "button", id: "restart", class: "primary", onclick: toSetup }, "Start a new game") : "");
  if (ui.focus) {
    const f = $(ui.focus);
    if (f) f.focus();
    ui.focus = null;
  }
  if (g.over && ui.shownResult !== g.id) {
    ui.shownResult = g.id;
    $("#result").scrollIntoView({ block: "nearest" });
  }
}

async function boot() {
  ui.catalog = await api("GET", "/api/games");
  const titles = ui.catalog.games.map((g) => g.title);
  $("#games-line").textContent = (titles.length > 1 ? `${titles.slice(0, -1).join(", ")} and ${titles.at(-1)}` : titles[0])
    + " against the bots";
  $("#add-bot").addEventListener("click", () => {
    const info = gameInfo(ui.pick.game);
    ui.pick.bots.push(info.default_bot);
    drawSetup();
  });
  $("#seat").addEventListener("change", (e) => { ui.pick.seat = Number(e.target.value); });
  $("#start").addEventListener("click", startGame);
  setupGame(ui.catalog.games[0].name);
  const m = location.hash.match(/^#g=([\w-]+)$/);
  if (m) {
    try { ui.game = await api("GET", `/api/games/${m[1]}`); } catch (e) { history.replaceState(null, "", location.pathname); }
  }
  draw();
  document.body.dataset.ready = "1";
}

boot().catch((e) => { document.body.textContent = `madang could not start: ${e.message}`; });
