// polyproxy explore: the page. It asks the server for everything about a
// position (/api/position) and draws it; the rules of chess stay on the
// server, which sends the legal moves.
'use strict';

// The address holds the position (?fen=...&moves=...&ply=N&chess960=1)
// and, with -edit, the run's token after '#', which the browser never
// sends. Parameters after the token (?moves=... added to the address
// explore printed) are read too, as if they came before it.
function readAddress() {
  const q = new URLSearchParams(location.search);
  let token = '';
  for (const [k, v] of new URLSearchParams(location.hash.slice(1).replaceAll('?', '&'))) {
    if (k === 'token') token = v;
    else if (!q.get(k)) q.set(k, v); // the printed address's empty ?moves= too
  }
  return { q, token };
}
const token = readAddress().token;
const COLORS = ['#2f6fb5', '#d9822b', '#3f9b4f', '#8e5bb5'];
const FILES = 'abcdefgh';

const state = { fen: '', chess960: false, moves: [], ply: 0, flipped: false, pick: null, data: null, books: null, promo: null };

const $ = (id) => document.getElementById(id);

function el(tag, attrs, ...kids) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k === 'text') e.textContent = v;
    else if (k === 'style') e.style.cssText = v; // through the CSSOM: the page's CSP refuses style attributes
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else if (v !== false && v != null) e.setAttribute(k, v === true ? '' : v);
  }
  for (const k of kids) if (k != null) e.append(k);
  return e;
}

const SVG = 'http://www.w3.org/2000/svg';
function svg(tag, attrs) {
  const e = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}

// The pieces' drawings (pieces.svg: symbols wk ... bp), put in the page
// once for every board's <use>.
async function loadPieces() {
  const res = await fetch('/pieces.svg');
  const doc = new DOMParser().parseFromString(await res.text(), 'image/svg+xml');
  const sprite = document.importNode(doc.documentElement, true);
  sprite.setAttribute('class', 'sprite');
  sprite.setAttribute('aria-hidden', 'true');
  document.body.append(sprite);
}

// Squares as the server names them ("e4") to board coordinates.
function sqXY(name) {
  let f = FILES.indexOf(name[0]), r = +name[1] - 1;
  if (state.flipped) { f = 7 - f; r = 7 - r; }
  return [f * 50, (7 - r) * 50];
}
function sqName(f, r) { return FILES[f] + (r + 1); }

function drawBoard() {
  const b = $('board');
  b.replaceChildren();
  const defs = svg('defs', {});
  defs.innerHTML = '<radialGradient id="checkglow"><stop offset="0" stop-color="#ff2b2b" stop-opacity=".85"/><stop offset="1" stop-color="#ff2b2b" stop-opacity="0"/></radialGradient>' +
    '<marker id="arrowhead" viewBox="0 0 10 10" refX="5" refY="5" markerWidth="3" markerHeight="3" orient="auto"><path d="M0 0L10 5L0 10z" fill="rgba(47,111,181,.85)"/></marker>';
  b.append(defs);
  const d = state.data;
  const last = state.ply > 0 ? d.moves[state.ply - 1].uci : '';
  for (let row = 0; row < 8; row++) {
    for (let col = 0; col < 8; col++) {
      const f = state.flipped ? 7 - col : col, r = state.flipped ? row : 7 - row;
      const name = sqName(f, r);
      const light = (f + r) % 2 === 1;
      b.append(svg('rect', { x: col * 50, y: row * 50, width: 50, height: 50, class: 'sq ' + (light ? 'light' : 'dark'), 'data-square': name }));
      if (last && (last.slice(0, 2) === name || last.slice(2, 4) === name)) b.append(svg('rect', { x: col * 50, y: row * 50, width: 50, height: 50, class: 'mark-last', 'pointer-events': 'none' }));
      if (state.pick === name) b.append(svg('rect', { x: col * 50, y: row * 50, width: 50, height: 50, class: 'mark-pick', 'pointer-events': 'none' }));
      if (col === 0) { const t = svg('text', { x: 2, y: row * 50 + 11, class: 'coord ' + (light ? 'on-light' : 'on-dark') }); t.textContent = r + 1; b.append(t); }
      if (row === 7) { const t = svg('text', { x: col * 50 + 42, y: 397, class: 'coord ' + (light ? 'on-light' : 'on-dark') }); t.textContent = FILES[f]; b.append(t); }
    }
  }
  for (let i = 0; i < 64; i++) {
    const pc = d.board[i];
    if (pc === '.') continue;
    const name = sqName(i % 8, 7 - Math.floor(i / 8));
    const [x, y] = sqXY(name);
    const white = pc === pc.toUpperCase();
    if (d.check && pc.toLowerCase() === 'k' && white === d.white_to_move) b.append(svg('circle', { cx: x + 25, cy: y + 25, r: 26, class: 'check' }));
    b.append(svg('use', { href: '#' + (white ? 'w' : 'b') + pc.toLowerCase(), x: x + 2.5, y: y + 2.5, width: 45, height: 45, 'pointer-events': 'none', 'data-piece': pc, 'data-on': name }));
  }
  if (state.pick) {
    for (const m of d.legal) {
      if (m.from !== state.pick) continue;
      const [x, y] = sqXY(m.to);
      const taken = d.board[(8 - +m.to[1]) * 8 + FILES.indexOf(m.to[0])] !== '.';
      b.append(taken ? svg('circle', { cx: x + 25, cy: y + 25, r: 22, class: 'ring' }) : svg('circle', { cx: x + 25, cy: y + 25, r: 7, class: 'dot' }));
    }
  }
  // The move the first column's book would play most often.
  const first = d.columns[0];
  if (first) {
    let best = -1;
    first.report.entries.forEach((e, i) => { if (e.chance > 0 && (best < 0 || e.chance > first.report.entries[best].chance)) best = i; });
    if (best >= 0) {
      const mv = first.report.entries[best].move;
      const [x1, y1] = sqXY(mv.slice(0, 2)), [x2, y2] = sqXY(mv.slice(2, 4));
      const dx = x2 - x1, dy = y2 - y1, len = Math.hypot(dx, dy) || 1;
      b.append(svg('line', { x1: x1 + 25, y1: y1 + 25, x2: x2 + 25 - dx / len * 14, y2: y2 + 25 - dy / len * 14, class: 'arrow' }));
    }
  }
}

function squareAt(ev) {
  const r = $('board').getBoundingClientRect();
  let col = Math.floor((ev.clientX - r.left) / r.width * 8), row = Math.floor((ev.clientY - r.top) / r.height * 8);
  if (col < 0 || col > 7 || row < 0 || row > 7) return null;
  return state.flipped ? sqName(7 - col, row) : sqName(col, 7 - row);
}

function ownPiece(name) {
  const d = state.data, pc = d.board[(8 - +name[1]) * 8 + FILES.indexOf(name[0])];
  return pc !== '.' && (pc === pc.toUpperCase()) === d.white_to_move;
}

function tryMove(from, to) {
  const ms = state.data.legal.filter((m) => m.from === from && m.to === to);
  if (ms.length === 0) return false;
  if (ms.length === 1) { play(ms[0].uci); return true; }
  const box = $('promo');
  box.replaceChildren(...ms.map((m) => {
    const p = m.uci[4], s = svg('svg', { viewBox: '0 0 45 45', width: 40, height: 40 });
    s.append(svg('use', { href: '#' + (state.data.white_to_move ? 'w' : 'b') + p }));
    return el('button', { type: 'button', title: m.san, 'data-promo': p, onclick: () => { box.hidden = true; play(m.uci); } }, s);
  }));
  box.hidden = false;
  return true;
}

let pressed = null;
function onDown(ev) {
  const name = squareAt(ev);
  if (!name || !state.data) return;
  $('promo').hidden = true;
  if (state.pick && state.pick !== name && tryMove(state.pick, name)) { state.pick = null; pressed = null; return; }
  if (ownPiece(name)) { state.pick = name; pressed = name; drawBoard(); } else if (state.pick) { state.pick = null; drawBoard(); }
}
function onUp(ev) {
  const name = squareAt(ev);
  if (pressed && name && name !== pressed && tryMove(pressed, name)) state.pick = null;
  pressed = null;
}

function query() {
  const q = new URLSearchParams();
  if (state.fen) q.set('fen', state.fen);
  if (state.chess960) q.set('chess960', '1');
  if (state.moves.length) q.set('moves', state.moves.join(','));
  if (state.ply !== state.moves.length) q.set('ply', state.ply);
  return q;
}

function showError(msg) {
  const e = $('error');
  e.textContent = msg;
  e.hidden = !msg;
}

// ask is the server's answer for a position: ok, and the position or the
// error.
async function ask(q) {
  const res = await fetch('/api/position?' + q.toString());
  const body = await res.json().catch(() => ({ error: res.statusText }));
  return { ok: res.ok, body };
}

// load shows the position params ask for (default: the page's). A line
// that cannot be played to its end shows the part that can, under the
// error; a position that cannot be shown at all leaves the page as it was,
// or shows fallback, under the error. Whatever asked (the address, the
// moves typed, a click) gets the same banner.
let loading = 0;
async function load(params, fallback) {
  const n = ++loading;
  const q = params || query();
  let { ok, body } = await ask(q);
  let error = ok ? '' : body.error || 'the server did not answer';
  if (!ok && body.playable !== undefined) {
    error += '; the line shown stops before it';
    const part = new URLSearchParams(q);
    part.set('moves', body.playable);
    part.delete('ply');
    ({ ok, body } = await ask(part));
  } else if (!ok && fallback) ({ ok, body } = await ask(fallback));
  if (n !== loading) return;
  if (ok) accept(body);
  showError(error || (ok ? '' : body.error));
}

// accept takes the server's answer as the page's state, and the address
// follows it: the position's parameters, then the token.
function accept(d) {
  state.data = d;
  state.fen = d.start_fen;
  state.chess960 = d.chess960;
  state.moves = d.moves.map((m) => m.uci);
  state.ply = d.ply;
  state.pick = null;
  const q = query().toString();
  history.replaceState(null, '', location.pathname + (q ? '?' + q : '') + (token ? '#token=' + token : ''));
  render();
}

function go(ply) {
  if (ply < 0 || ply > state.moves.length || ply === state.ply) return;
  state.ply = ply;
  load();
}

function play(uci) {
  if (state.moves[state.ply] === uci) { go(state.ply + 1); return; }
  state.moves = state.moves.slice(0, state.ply).concat(uci);
  state.ply++;
  load();
}

function render() {
  const d = state.data;
  drawBoard();
  $('fen-shown').textContent = d.fen;
  $('chess960').checked = d.chess960;
  $('status').textContent = d.status ? d.status[0].toUpperCase() + d.status.slice(1) : '';
  $('first').disabled = $('back').disabled = state.ply === 0;
  $('forward').disabled = $('last').disabled = state.ply === state.moves.length;
  renderLine();
  renderColumns();
  if (state.books) $('undo').disabled = state.books.undo.length === 0;
}

// moveName is the i-th move of the line as a game score writes it: 2. Nf3,
// 2... Nc6.
function moveName(i) {
  const d = state.data, startBlack = !!d.start_fen && d.start_fen.split(' ')[1] === 'b';
  const first = d.start_fen ? +(d.start_fen.split(' ')[5] || 1) : 1;
  const ply = i + (startBlack ? 1 : 0);
  return (first + Math.floor(ply / 2)) + (ply % 2 ? '... ' : '. ') + d.moves[i].san;
}

function renderLine() {
  const d = state.data, list = $('movelist');
  list.replaceChildren();
  // Where each book ends along the line: the first position without a
  // book move.
  const ends = d.columns.map((c, i) => el('span', {}, el('span', { class: 'swatch', style: 'background:' + COLORS[i % COLORS.length] }),
    c.name + ': ' + (c.end < 0 ? (d.moves.length ? 'in book along the whole line' : 'in book') : c.end === 0 ? 'no book move at the start' : 'out of book after ' + moveName(c.end - 1))));
  $('ends').replaceChildren(...ends);
  const startBlack = !!d.start_fen && d.start_fen.split(' ')[1] === 'b';
  let number = d.start_fen ? +(d.start_fen.split(' ')[5] || 1) : 1;
  const cells = [];
  // A move's marks: for each column, a dot when the book had moves in the
  // position the move was played from, a ring when it had none.
  const mv = (i) => {
    const m = d.moves[i];
    const marks = d.columns.map((c, k) => c.along[i] > 0
      ? el('span', { class: 'in', style: 'background:' + COLORS[k % COLORS.length], title: `${c.name}: ${c.along[i]} book ${c.along[i] === 1 ? 'move' : 'moves'} here` })
      : el('span', { class: 'out', title: c.name + ': no book move here' }));
    return el('span', { class: 'mv' + (i + 1 === state.ply ? ' current' : ''), 'data-ply': i + 1, onclick: () => go(i + 1) }, m.san, ...marks);
  };
  let i = 0;
  if (startBlack && d.moves.length) { cells.push(el('span', { class: 'num', text: number + '.' }), el('span', { class: 'mv', text: '…' }), mv(0)); i = 1; number++; }
  for (; i < d.moves.length; i += 2, number++) {
    cells.push(el('span', { class: 'num', text: number + '.' }), mv(i), i + 1 < d.moves.length ? mv(i + 1) : el('span'));
  }
  list.append(el('li', {}, ...cells));
  scrollLine(list);
}

// scrollLine brings the current move into sight by scrolling the move list
// alone: the page never moves by itself.
function scrollLine(list) {
  const cur = list.querySelector('.current');
  if (!cur) return;
  const pad = parseFloat(getComputedStyle(list).paddingTop);
  const l = list.getBoundingClientRect(), c = cur.getBoundingClientRect();
  if (c.top < l.top + pad) list.scrollTop -= l.top + pad - c.top;
  else if (c.bottom > l.bottom - pad) list.scrollTop += c.bottom - (l.bottom - pad);
}

const pct = (x) => (100 * x).toFixed(1) + '%';

// bar is a share as a bar with its figure beside it.
function bar(x, title) {
  return el('div', { class: 'bar', title }, el('div', { class: 'track' }, el('span', { class: 'fill', style: 'width:' + pct(x) })), el('span', { class: 'txt', text: pct(x) }));
}

// The rules that leave a move out, as the chance column names them; the
// full reason shows on hover.
const OUT = { legal: 'illegal', weight: 'weight 0', threshold: 'below threshold', repetition: 'repetition', width: 'outside width', min_weight: 'min weight' };

function chance(e) {
  if (!e.out) return bar(e.chance, `how likely a game plays it; ${pct(e.share)} of the legal weight`);
  const why = (e.note || OUT[e.out] || e.out) + (e.legal ? `; ${pct(e.share)} of the legal weight` : '');
  return el('span', { class: 'why', 'data-out': e.out, title: why, text: OUT[e.out] || e.out });
}

// points writes half points as a chess score: 27½.
const points = (half) => (half >= 2 || half % 2 === 0 ? Math.floor(half / 2) : '') + (half % 2 ? '½' : '');

// record is a move's games where the book keeps won, drawn and lost apart
// (an ABK move's records, but for a converted book's units of chance; in a
// CTG book the games of the position the move leads to), from the side
// that plays it; null for a Polyglot book, whose learn field holds games
// and points only.
function record(e, x) {
  if (x.abk) {
    const games = x.abk.games - (x.abk.synthetic_games || 0);
    return { games, won: x.abk.won, drawn: Math.max(games - x.abk.won - x.abk.lost, 0), lost: x.abk.lost };
  }
  if (e.ctg) return { games: e.ctg.games, won: e.ctg.won, drawn: e.ctg.drawn, lost: e.ctg.lost };
  return null;
}

// learn is a move's statistics: the score as a bar (won, drawn and lost
// where the book keeps them apart), the score in per cent, and points of
// games as a chess table writes them (27½/60).
function learn(e, x) {
  const r = record(e, x);
  const games = r ? r.games : e.games;
  // A book polyproxy converted to ABK keeps each move's chance in its game
  // counts: no games played, never shown as a score.
  const converted = x.abk && x.abk.synthetic_games != null
    ? `; the book's count also holds ${x.abk.synthetic_games / 32768} units of the chance the move had in the book converted (no games played)` : '';
  if (!games) {
    return converted ? el('span', { class: 'synthetic', title: 'no games played' + converted, text: 'converted' }) : el('span', { class: 'none', text: '—' });
  }
  const half = r ? 2 * r.won + r.drawn : e.points;
  const score = half / (2 * games), share = (n) => pct(n / games);
  const track = r
    ? el('div', { class: 'track wdl' }, el('span', { class: 'w', style: 'width:' + share(r.won) }), el('span', { class: 'd', style: 'width:' + share(r.drawn) }), el('span', { class: 'l', style: 'width:' + share(r.lost) }))
    : el('div', { class: 'track score' }, el('span', { class: 'fill', style: 'width:' + pct(score) }));
  const of = `${points(half)} ${half === 2 ? 'point' : 'points'} of ${games} ${games === 1 ? 'game' : 'games'}, ${(100 * score).toFixed(0)}%` +
    (r ? `: won ${r.won}, drawn ${r.drawn}, lost ${r.lost}` : '') + converted;
  return el('div', { class: 'learn', title: of, 'data-games': games, 'data-points': half / 2 },
    el('div', { class: 'bar' }, track, el('span', { class: 'txt', text: (100 * score).toFixed(0) + '%' })),
    // A space between the record and the points, where a narrow column
    // may wrap.
    el('div', { class: 'learn-txt' }, ...(r ? [el('span', { text: `+${r.won} =${r.drawn} −${r.lost}` }), ' '] : []), el('span', { text: `${points(half)}/${games}` })));
}

// A CTG book's marks. ANNOTATIONS are a move's (its glyph's colour, and
// what it says, with its share of DroidFish's weight); MARKS are those of
// the position a move leads to.
const ANNOTATIONS = {
  '!': ['good', 'a good move (weight ×1.23)'], '!!': ['good', 'a brilliant move (weight ×1.46)'],
  '?': ['bad', 'a mistake (never played)'], '??': ['bad', 'a blunder (never played)'], '?!': ['bad', 'a dubious move (never played)'],
  '!?': ['odd', 'an interesting move'], 'only move': ['word', 'the only move'], zugzwang: ['word', 'zugzwang'],
};
const UNKNOWN = ['word', 'an annotation byte the reader does not know'];
const MARKS = {
  'main line': ['main', 'leads to a position the book marks as its main line'],
  avoid: ['avoid', 'leads to a position the book marks to avoid in tournaments (never played in tournament mode)'],
};

// ctgMarks are the marks shown beside a CTG move: its annotation, then
// the mark of the position it leads to.
function ctgMarks(e) {
  const g = e.ctg;
  if (!g) return [];
  const out = [];
  if (g.annotation) {
    const [kind, says] = ANNOTATIONS[g.annotation] || UNKNOWN;
    if (kind === 'word') out.push(' ');
    out.push(el('span', { class: kind === 'word' ? 'tag ann-word' : 'ann ' + kind, 'data-mark': g.annotation, title: says, text: g.annotation }));
  }
  if (g.mark) {
    const [kind, says] = MARKS[g.mark] || ['', g.mark];
    out.push(' ', el('span', { class: 'tag ' + kind, 'data-mark': g.mark, title: says, text: g.mark }));
  }
  return out;
}

// ctgLegend says what each mark shown in a CTG table means.
function ctgLegend(c) {
  const shown = new Set(c.report.entries.flatMap((e) => (e.ctg ? [e.ctg.annotation, e.ctg.mark] : [])).filter(Boolean));
  if (shown.size === 0) return [];
  const items = [];
  const item = (cls, mark, says) => el('span', { 'data-mark': mark }, el('span', { class: cls, text: mark }), says);
  for (const [mark, [kind, says]] of Object.entries(ANNOTATIONS)) {
    if (shown.has(mark)) items.push(item(kind === 'word' ? 'tag ann-word' : 'ann ' + kind, mark, says));
  }
  for (const mark of shown) {
    if (!ANNOTATIONS[mark] && !MARKS[mark]) items.push(item('tag ann-word', mark, UNKNOWN[1]));
  }
  for (const [mark, [kind, says]] of Object.entries(MARKS)) {
    if (shown.has(mark)) items.push(item('tag ' + kind, mark, says));
  }
  return [el('div', { class: 'legend' }, ...items)];
}

function renderColumns() {
  const d = state.data, right = $('right');
  right.replaceChildren();
  d.columns.forEach((c, ci) => {
    const info = state.books ? state.books.columns[ci] : null;
    const r = c.report;
    const card = el('div', { class: 'col', id: 'col-' + ci, 'data-column': ci });
    card.append(el('h3', {}, el('span', { class: 'swatch', style: 'background:' + COLORS[ci % COLORS.length] }), c.name));
    const base = (p) => p.split(/[\\/]/).pop();
    const entries = info ? info.books.find((x) => x.path === r.book) : null;
    const books = (r.books.length > 1 ? r.books.map(base).join(' ; ') + ', listed: ' + base(r.book) : base(r.book)) +
      (entries ? ` (${entries.size.replace(/^\d+/, (n) => Number(n).toLocaleString('en'))})` : '');
    const pol = info ? `${info.mode}, threshold ${info.threshold}‰` + (info.width ? `, width ${info.width}` : '') +
      (info.min_weight ? `, min weight ${info.min_weight}` : '') + (info.learn_weight ? ', learn weight' : '') : '';
    card.append(el('div', { class: 'meta', title: r.books.join('\n'), text: `${c.format.toUpperCase()} · ${books} · ${pol}` }));
    if (info && info.note) card.append(el('div', { class: 'note', text: info.note }));
    if (r.no_key) card.append(el('div', { class: 'empty', text: r.no_key }));
    else if (r.entries.length === 0) card.append(el('div', { class: 'empty', text: 'Not in book.' }));
    else card.append(movesTable(c, ci), ...ctgLegend(c));
    if (c.missing.length) card.append(el('div', { class: 'missing' }, el('b', { text: 'Not in this book: ' }), c.missing.map((m) => m.san).join(', ') + ' (in ' + d.columns[0].name + ')'));
    if (c.editable) card.append(editor(c, ci));
    right.append(card);
  });
}

function movesTable(c, ci) {
  const abk = c.format === 'abk', ctg = c.format === 'ctg';
  const head = [['Move', ctg ? 'the move, its annotation in the book, and the mark of the position it leads to' : ''],
    ['Chance', 'how likely a game plays the move under the column\'s settings, or the rule that leaves it out'],
    ['Weight', ctg ? 'DroidFish\'s weight for the move, scaled so that the heaviest here weighs 65535' : 'the weight stored in the book', 'num'], ...(abk ? [['Prio', 'the priority, 0-9', 'num']] : []),
    ctg ? ['Games', 'the games of the position after the move, from the side that plays it: score, +won =drawn −lost, points of games', 'learn']
      : ['Learn', 'the score of the side that plays the move: per cent, and points of games' + (abk ? '; +won =drawn −lost' : ''), 'learn'],
    ['Next', 'book moves in the position after the move', 'num'], ...(c.editable ? [['', '', 'pen']] : [])];
  const t = el('table', { class: 'moves' }, el('thead', {}, el('tr', {}, ...head.map(([h, title, cls]) => el('th', { class: cls || '', title: title || false, text: h })))));
  const body = el('tbody');
  c.report.entries.forEach((e, i) => {
    const x = c.extra[i];
    const cls = ['entry', e.legal ? 'book' : 'illegal', e.eligible ? 'in' : 'out', x.change ? 'chg-' + x.change : ''].join(' ');
    const row = el('tr', { class: cls, 'data-move': e.move, 'data-chance': e.chance, 'data-share': e.share, 'data-weight': e.weight,
      onclick: (ev) => { if (e.legal && !ev.target.closest('button')) play(e.move); } },
    // Spaces between the move, its UCI and its mark, where a narrow column
    // may wrap.
    el('td', { class: 'san', title: e.move }, x.san || e.move, ...ctgMarks(e), ' ', el('span', { class: 'uci', text: x.san ? e.move : '' }),
      ...(x.change ? [' ', el('span', { class: 'tag ' + x.change, text: x.change })] : [])),
    el('td', { class: 'chance' }, chance(e)),
    el('td', { class: 'num', text: e.weight }),
    ...(abk ? [el('td', { class: 'num', text: x.abk ? x.abk.priority : '' })] : []),
    el('td', { class: 'learn' }, learn(e, x)),
    el('td', { class: 'num', text: e.legal ? x.next : '', title: 'book moves in the position after it' }),
    ...(c.editable ? [el('td', { class: 'pen' }, e.legal ? el('button', { class: 'pen', type: 'button', title: 'edit this move', onclick: () => pickForEdit(ci, e.move) }, '✎') : null)] : []));
    body.append(row);
  });
  t.append(body);
  return t;
}

// editor is a column's form for changes: a move of the position (book
// moves first), its fields, and set, delete and add.
function editor(c, ci) {
  const abk = c.format === 'abk';
  const inBook = new Map(c.report.entries.map((e, i) => [e.move, i]));
  const sel = el('select', { class: 'ed-move' });
  for (const e of c.report.entries) if (e.legal) sel.append(el('option', { value: e.move, text: (c.extra[inBook.get(e.move)].san) + ' (in book)' }));
  for (const m of state.data.legal) if (!inBook.has(m.uci)) sel.append(el('option', { value: m.uci, text: m.san }));
  const num = (cls, title) => el('input', { class: cls, type: 'number', min: 0, title });
  const fields = abk
    ? { priority: num('ed-priority', 'priority 0-9'), games: num('ed-games', 'games'), won: num('ed-won', 'won by the side that plays it'), lost: num('ed-lost', 'lost by it') }
    : { weight: num('ed-weight', 'weight 1-65535') };
  const fill = () => {
    const i = inBook.get(sel.value);
    const e = i === undefined ? null : c.report.entries[i], x = e ? c.extra[i] : null;
    if (abk) {
      fields.priority.value = x && x.abk ? x.abk.priority : 5;
      fields.games.value = x && x.abk ? x.abk.games : 1;
      fields.won.value = x && x.abk ? x.abk.won : 0;
      fields.lost.value = x && x.abk ? x.abk.lost : 0;
    } else fields.weight.value = e ? e.weight : 1;
    save.disabled = del.disabled = !e;
    add.disabled = !!e;
  };
  const send = (op) => {
    const body = { column: ci, op, move: sel.value };
    for (const [k, f] of Object.entries(fields)) body[k] = +f.value;
    change('/api/edit', body);
  };
  const save = el('button', { type: 'button', class: 'ed-save', onclick: () => send(abk ? 'abk' : 'weight') }, 'Set');
  const del = el('button', { type: 'button', class: 'ed-delete', onclick: () => send('delete') }, 'Delete');
  const add = el('button', { type: 'button', class: 'ed-add', onclick: () => send('add') }, 'Add');
  sel.addEventListener('change', fill);
  const box = el('div', { class: 'editor edit-only' }, el('span', { class: 'label', text: 'Edit' }), sel,
    ...Object.entries(fields).flatMap(([k, f]) => [el('span', { class: 'label', text: k }), f]), save, del, add);
  fill();
  return box;
}

function pickForEdit(ci, move) {
  const sel = document.querySelector(`#col-${ci} .ed-move`);
  sel.value = move;
  sel.dispatchEvent(new Event('change'));
  document.querySelector(`#col-${ci} .editor input`).focus();
}

async function change(path, body) {
  const pos = { fen: state.fen, moves: state.moves.join(','), ply: state.ply, chess960: state.chess960 };
  const res = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json', 'X-Explore-Token': token }, body: JSON.stringify({ ...pos, ...body }) });
  const out = await res.json().catch(() => ({ error: res.statusText }));
  if (!res.ok) { showError(out.error || res.statusText); return; }
  await loadBooks();
  accept(out);
  showError('');
}

async function loadBooks() {
  const res = await fetch('/api/books');
  state.books = await res.json();
  document.body.classList.toggle('editing', state.books.edit);
  // The layout leaves the columns their room beside the board.
  document.documentElement.style.setProperty('--columns', state.books.columns.length);
  $('undo').title = state.books.undo.length ? 'Undo the ' + state.books.undo[0] : 'Nothing to undo';
}

function keys(ev) {
  if (ev.target.closest('input, select, textarea') || ev.altKey || ev.ctrlKey || ev.metaKey) return;
  const to = { ArrowLeft: state.ply - 1, ArrowRight: state.ply + 1, Home: 0, End: state.moves.length }[ev.key];
  if (to === undefined) return;
  ev.preventDefault();
  go(to);
}

async function start() {
  $('board').addEventListener('pointerdown', onDown);
  $('board').addEventListener('pointerup', onUp);
  document.addEventListener('keydown', keys);
  $('first').onclick = () => go(0);
  $('back').onclick = () => go(state.ply - 1);
  $('forward').onclick = () => go(state.ply + 1);
  $('last').onclick = () => go(state.moves.length);
  $('flip').onclick = () => { state.flipped = !state.flipped; drawBoard(); };
  $('undo').onclick = () => change('/api/undo', {});
  $('fen-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = new URLSearchParams();
    const fen = $('fen').value.trim();
    if (fen) q.set('fen', fen);
    if ($('chess960').checked) q.set('chess960', '1');
    load(q);
  });
  $('moves-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const q = new URLSearchParams();
    if (state.fen) q.set('fen', state.fen);
    if (state.chess960) q.set('chess960', '1');
    q.set('moves', $('moves-input').value);
    load(q);
  });
  $('chess960').addEventListener('change', () => { state.chess960 = $('chess960').checked; state.moves = []; state.ply = 0; load(); });
  await Promise.all([loadBooks(), loadPieces()]);
  const { q } = readAddress();
  if (q.get('fen')) $('fen').value = q.get('fen');
  await load(q, new URLSearchParams());
  document.body.dataset.ready = '1';
}

start();
