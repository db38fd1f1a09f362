/* The pdn game viewer (pdn/view/viewer.py writes the data this script reads).
 * Positions are never computed here: each move carries the side to move after it and the
 * squares the engine says it changed. Every value from a file is shown with textContent. */
var PdnViewer = (function () {
  "use strict";
  var ROW_HEIGHT = 24;
  var MAX_NESTING = 12;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }
  function Viewer(root) {
    var self = this;
    this.root = root;
    this.meta = JSON.parse(document.getElementById(root.id + "-meta").textContent);
    this.source = document.getElementById(root.id + "-games");
    this.lines = null;
    this.flipped = false;
    this.numbers = true;
    this.filtered = this.meta.rows.map(function (_, i) { return i; });
    this.lower = null;
    var explorer = document.getElementById(root.id + "-explorer");
    this.explorer = explorer ? JSON.parse(explorer.textContent) : null;
    this.build();
    this.open(0);
    var target = root.getAttribute("data-keys") === "page" ? document : root;
    target.addEventListener("keydown", function (ev) { self.key(ev); });
  }

  Viewer.prototype.build = function () {
    var self = this, root = this.root, rows = this.meta.rows;
    root.textContent = "";
    if (rows.length > 1) {
      var list = el("div", "pdnv-list");
      var filter = el("input", "pdnv-filter");
      filter.type = "search";
      filter.placeholder = "Filter: player, event, round, result, ballot, verdict";
      filter.addEventListener("input", function () { self.filter(filter.value); });
      this.count = el("div", "pdnv-count");
      var head = el("div", "pdnv-row pdnv-row-head");
      this.meta.columns.forEach(function (c) { head.appendChild(el("span", "pdnv-cell", c)); });
      this.scroller = el("div", "pdnv-scroll");
      this.spacer = el("div", "pdnv-spacer");
      this.scroller.appendChild(this.spacer);
      this.scroller.addEventListener("scroll", function () { self.drawRows(); });
      list.appendChild(filter);
      list.appendChild(this.count);
      list.appendChild(head);
      list.appendChild(this.scroller);
      root.appendChild(list);
    }
    var main = el("div", "pdnv-main");
    this.title = el("div", "pdnv-title");
    this.verdict = el("div", "pdnv-verdict");
    var body = el("div", "pdnv-body");
    var left = el("div", "pdnv-left");
    this.boardBox = el("div", "pdnv-board");
    var controls = el("div", "pdnv-controls");
    function button(label, name, action) {
      var b = el("button", "pdnv-" + name, label);
      b.type = "button";
      b.title = name;
      b.addEventListener("click", function () { action(); root.focus({ preventScroll: true }); });
      controls.appendChild(b);
      return b;
    }
    button("\u00AB", "first", function () { self.go(self.rootNode); });
    button("\u25C0", "back", function () { self.back(); });
    button("\u25B6", "forward", function () { self.forward(); });
    button("\u00BB", "last", function () { self.toEnd(); });
    button("Flip", "flip", function () { self.flip(); });
    var numbersLabel = el("label", "pdnv-numbers-label");
    var numbers = el("input", "pdnv-numbers");
    numbers.type = "checkbox";
    numbers.checked = true;
    numbers.addEventListener("change", function () { self.numbers = numbers.checked; self.draw(); });
    numbersLabel.appendChild(numbers);
    numbersLabel.appendChild(document.createTextNode(" numbers"));
    controls.appendChild(numbersLabel);
    var jump = el("input", "pdnv-jump");
    jump.type = "number";
    jump.min = "0";
    jump.placeholder = "ply";
    jump.title = "jump to a mainline ply";
    jump.addEventListener("change", function () { self.jump(+jump.value); });
    controls.appendChild(jump);
    this.message = el("div", "pdnv-message");
    this.moveList = el("div", "pdnv-moves");
    this.graphBox = el("div", "pdnv-graph");
    this.analysisBox = el("div", "pdnv-analysis");
    left.appendChild(this.boardBox);
    left.appendChild(this.graphBox);
    left.appendChild(this.analysisBox);
    left.appendChild(controls);
    left.appendChild(this.message);
    if (this.explorer) {
      this.panelBox = el("div", "pdnx-panel");
      left.appendChild(this.panelBox);
    }
    body.appendChild(left);
    body.appendChild(this.moveList);
    main.appendChild(this.title);
    main.appendChild(this.verdict);
    main.appendChild(body);
    root.appendChild(main);
    if (this.scroller) this.filter("");
  };

  // ---------------------------------------------------------------- the game list (lazy)

  Viewer.prototype.filter = function (text) {
    var rows = this.meta.rows, words = text.toLowerCase().split(/\s+/).filter(Boolean);
    if (words.length && !this.lower) {
      this.lower = rows.map(function (r) { return r.join("\u0001").toLowerCase(); });
    }
    var lower = this.lower;
    this.filtered = [];
    for (var i = 0; i < rows.length; i++) {
      if (words.every(function (w) { return lower[i].indexOf(w) >= 0; })) this.filtered.push(i);
    }
    this.count.textContent = this.filtered.length + " of " + rows.length + " games";
    this.spacer.style.height = this.filtered.length * ROW_HEIGHT + "px";
    this.scroller.scrollTop = 0;
    this.drawRows(true);
  };

  Viewer.prototype.drawRows = function (force) {
    var first = Math.floor(this.scroller.scrollTop / ROW_HEIGHT);
    var shown = Math.ceil((this.scroller.clientHeight || 400) / ROW_HEIGHT) + 2;
    if (!force && first === this.firstRow) return;
    this.firstRow = first;
    var self = this;
    Array.prototype.slice.call(this.spacer.childNodes).forEach(function (n) { n.remove(); });
    for (var k = first; k < Math.min(first + shown, this.filtered.length); k++) {
      (function (index, place) {
        var row = el("div", "pdnv-row" + (index === self.current ? " pdnv-row-current" : ""));
        row.style.top = place * ROW_HEIGHT + "px";
        row.setAttribute("data-game", String(index));
        self.meta.rows[index].forEach(function (value, c) {
          var cell = el("span", "pdnv-cell", value);
          if (c === 7) cell.className += " pdnv-status-" + value;
          row.appendChild(cell);
        });
        row.addEventListener("click", function () { self.open(index); });
        self.spacer.appendChild(row);
      })(this.filtered[k], k);
    }
  };

  Viewer.prototype.record = function (index) {
    if (this.lines === null) this.lines = this.source.textContent.split("\n").slice(1);
    return JSON.parse(this.lines[index]);
  };

  // ---------------------------------------------------------------- one game

  Viewer.prototype.open = function (index) {
    if (index < 0 || index >= this.meta.rows.length) return;
    this.current = index;
    this.game = this.record(index);
    this.board = this.meta.boards[this.meta.board_of[index]];
    var row = this.meta.rows[index];
    // The first mover's name first, as the result is read (Black in English checkers).
    var sides = this.game.first === "B" ? [row[1], row[0]] : [row[0], row[1]];
    this.title.textContent = (sides[0] || "?") + " \u2013 " + (sides[1] || "?") +
      (row[5] ? "   " + row[5] : "");
    var sub = [row[2], row[3] ? "round " + row[3] : "", row[4], row[6], this.game.variant]
      .filter(Boolean).join(" \u00b7 ");
    this.title.appendChild(el("div", "pdnv-subtitle", sub));
    this.showVerdict();
    var tags = el("details", "pdnv-tags");
    tags.appendChild(el("summary", null, "Tags (" + this.game.tags.length + ")"));
    var table = el("table");
    this.game.tags.forEach(function (pair) {
      var tr = el("tr");
      tr.appendChild(el("th", null, pair[0]));
      tr.appendChild(el("td", null, pair[1]));
      table.appendChild(tr);
    });
    tags.appendChild(table);
    this.verdict.appendChild(tags);
    this.rootNode = { prev: null, next: null, ply: 0, pieces: this.game.start.split(""),
                      turn: this.game.turn, rec: null, span: null };
    this.moveList.textContent = "";
    var comments = this.game.comments;
    for (var c = 0; c < comments.length; c++) {
      this.moveList.appendChild(el("span", "pdnv-comment", comments[c]));
    }
    this.buildLine(this.game.moves, this.rootNode, 1, this.moveList, true, 0);
    if (this.game.terminator) this.moveList.appendChild(el("span", "pdnv-result", this.game.terminator));
    this.go(this.rootNode);
    if (this.scroller) this.drawRows(true);
  };

  Viewer.prototype.showVerdict = function () {
    var game = this.game, v = this.verdict;
    v.textContent = "";
    v.className = "pdnv-verdict pdnv-status-" + game.status;
    v.appendChild(el("b", null, "Verdict: " + game.status));
    var errors = game.problems.filter(function (p) { return p.severity === "error"; });
    if (errors.length) {
      var p = errors[0];
      v.appendChild(el("span", null, "  " + (p.where ? p.where + ": " : "") + p.code + ": " +
        p.message + (errors.length > 1 ? "  (+" + (errors.length - 1) + " more)" : "")));
    }
    var general = game.general.map(function (i) { return game.problems[i]; });
    general.forEach(function (p) {
      v.appendChild(el("div", "pdnv-general", p.at + ": " + p.severity + " " + p.code + ": " + p.message));
    });
  };

  function moveOf(item) {
    if (Array.isArray(item)) return { s: item[0], d: item.length > 1 ? item[1] : null };
    return item;
  }

  // The move tree to nodes and spans, with a stack of lines rather than recursion, so that
  // variations nested thousands deep cannot overflow the script's stack.
  Viewer.prototype.buildLine = function (items, before, ply, box, mainline, depth) {
    var self = this, first = this.game.first;
    var work = [{ items: items, i: 0, prev: before, ply: ply, box: box, mainline: mainline,
                  depth: depth, close: false, started: true, parent: null }];
    while (work.length) {
      var job = work[work.length - 1];
      if (!job.started) {
        job.started = true;
        if (job.parent && job.close) job.parent.appendChild(el("span", "pdnv-bracket", "("));
        else if (job.parent) job.parent.appendChild(job.box);
      }
      if (job.i >= job.items.length) {
        work.pop();
        if (job.close) job.box.appendChild(el("span", "pdnv-bracket", ")"));
        continue;
      }
      var i = job.i, rec = moveOf(job.items[i]), prev = job.prev, at = job.box;
      job.i += 1;
      var node = { prev: prev, next: null, ply: job.ply, rec: rec, pieces: null, turn: null,
                   mainline: job.mainline, problems: rec.p || [] };
      if (i > 0 || job.mainline) prev.next = node;
      (prev.kids || (prev.kids = [])).push(node);
      (rec.cb || []).forEach(function (t) { at.appendChild(el("span", "pdnv-comment", t)); });
      var mover = job.ply % 2 === 1 ? first : (first === "B" ? "W" : "B");
      if (this.game.turn !== first) mover = mover === "B" ? "W" : "B";
      var moveNumber = Math.floor((job.ply - 1 + (this.game.turn !== first ? 1 : 0)) / 2) + 1;
      var after = at.lastChild && at.lastChild.classList;
      var inLine = after && (after.contains("pdnv-move") || after.contains("pdnv-nag"));
      if (rec.setup === undefined && (mover === first || i === 0 || !inLine)) {
        at.appendChild(el("span", "pdnv-num", moveNumber + (mover === first ? "." : "...")));
      }
      var span = el("span", "pdnv-move", rec.setup !== undefined ? "[setup]" : rec.s);
      span.setAttribute("data-ply", String(job.ply));
      if (rec.setup !== undefined) span.title = rec.setup;
      if (node.problems.some(function (k) { return self.game.problems[k].severity === "error"; })) {
        span.className += " pdnv-illegal";
        span.title = node.problems.map(function (k) { return self.game.problems[k].message; }).join("\n");
      }
      if (rec.d === null || rec.d === undefined) span.className += " pdnv-unplayed";
      (function (n) { span.addEventListener("click", function () { self.go(n); }); })(node);
      node.span = span;
      at.appendChild(span);
      var marks = (rec.st || "") + (rec.g || []).join(" ");
      if (marks) at.appendChild(el("span", "pdnv-nag", marks));
      var an = rec.an;  // what pdn's analysis says of the move (viewer.py _notes)
      if (an && an.m && !/[?!]/.test(marks)) {
        var judged = el("span", "pdnv-nag pdnv-analysis-nag", an.m);
        judged.title = "pdn analyse: " + an.c;
        at.appendChild(judged);
      }
      (rec.ca || []).forEach(function (t) { at.appendChild(el("span", "pdnv-comment", t)); });
      if (an && an.c && (rec.ca || []).indexOf(an.c) < 0) {
        at.appendChild(el("span", "pdnv-comment pdnv-analysis-comment", an.c));
      }
      var lines = rec.vars || [];
      var ply0 = job.ply;
      if (rec.setup === undefined) job.ply += 1;
      job.prev = node;
      // Pushed last first, so that the first alternative is drawn first, each before the
      // line goes on. Nested blocks up to a depth; deeper lines go inline in brackets, so that
      // the document cannot get too deep to lay out.
      for (var v = lines.length - 1; v >= 0; v--) {
        var nested = job.depth < MAX_NESTING;
        work.push({ items: lines[v], i: 0, prev: prev, ply: ply0, mainline: false,
                    box: nested ? el("div", "pdnv-variation") : at, parent: at,
                    depth: job.depth + 1, close: !nested, started: false });
      }
    }
  };

  Viewer.prototype.position = function (node) {
    if (node.pieces) return node;
    var chain = [];
    for (var n = node; !n.pieces; n = n.prev) chain.push(n);
    for (var k = chain.length - 1; k >= 0; k--) {
      var m = chain[k], d = m.rec.d;
      if (d === null || d === undefined) {
        m.pieces = m.prev.pieces; m.turn = m.prev.turn; m.changes = [];
      } else {
        m.pieces = m.prev.pieces.slice();
        m.changes = PdnBoard.parseChange(d);
        m.changes.forEach(function (c) { m.pieces[c[0] - 1] = c[1]; });
        m.turn = d.charAt(0);
      }
    }
    return node;
  };

  Viewer.prototype.go = function (node) {
    this.node = node;
    this.position(node);
    var spans = this.moveList.querySelectorAll(".pdnv-current");
    for (var i = 0; i < spans.length; i++) spans[i].classList.remove("pdnv-current");
    if (node.span) {
      node.span.classList.add("pdnv-current");
      // Scroll the move list only: scrollIntoView would scroll the whole page as well.
      var box = this.moveList, span = node.span;
      if (span.offsetTop < box.scrollTop) box.scrollTop = span.offsetTop;
      else if (span.offsetTop + span.offsetHeight > box.scrollTop + box.clientHeight) {
        box.scrollTop = span.offsetTop + span.offsetHeight - box.clientHeight;
      }
    }
    this.draw();
    this.drawGraph();
    this.explain();
    this.panel();
  };
  Viewer.prototype.forward = function () { if (this.node.next) this.go(this.node.next); };
  Viewer.prototype.back = function () { if (this.node.prev) this.go(this.node.prev); };
  Viewer.prototype.toEnd = function () {
    var n = this.node;
    while (n.next) n = n.next;
    this.go(n);
  };
  Viewer.prototype.jump = function (ply) {
    var n = this.rootNode;
    while (n.next && n.ply < ply) n = n.next;
    this.go(n);
  };
  Viewer.prototype.flip = function () { this.flipped = !this.flipped; this.draw(); };

  Viewer.prototype.key = function (ev) {
    var tag = ev.target && ev.target.tagName;
    if (tag === "INPUT" || tag === "TEXTAREA" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
    var handled = true;
    switch (ev.key) {
      case "ArrowRight": this.forward(); break;
      case "ArrowLeft": this.back(); break;
      case "Home": this.go(this.rootNode); break;
      case "End": this.toEnd(); break;
      case "ArrowDown": this.step(1); break;
      case "ArrowUp": this.step(-1); break;
      case "f": this.flip(); break;
      default: handled = false;
    }
    if (handled) ev.preventDefault();
  };
  Viewer.prototype.step = function (delta) {
    var at = this.filtered.indexOf(this.current) + delta;
    if (at >= 0 && at < this.filtered.length) this.open(this.filtered[at]);
  };

  Viewer.prototype.explain = function () {
    var node = this.node, game = this.game, box = this.message;
    box.textContent = "";
    var mover = node.turn === "W" ? "White" : "Black";
    box.appendChild(el("div", "pdnv-tomove", (node.ply ? "After ply " + node.ply + ". " : "Start. ") +
      mover + " to move."));
    if (node.off) {
      box.appendChild(el("div", "pdnx-off", "Off the game: " + node.rec.s +
        " is a reply of the collection, not this game's move (\u25C0 goes back to the game)."));
    }
    if (node.rec && (node.rec.d === null || node.rec.d === undefined)) {
      box.appendChild(el("div", "pdnv-problem", "This move could not be replayed."));
    }
    (node.problems || []).forEach(function (k) {
      var p = game.problems[k];
      var line = el("div", "pdnv-problem pdnv-" + p.severity);
      line.appendChild(el("b", null, p.code + ": "));
      line.appendChild(document.createTextNode(p.message));
      box.appendChild(line);
      if (p.legal.length) {
        box.appendChild(el("div", "pdnv-legal", "Legal moves here: " + p.legal.join(", ")));
        if (p.severity === "error" && (p.paths || []).length) {
          box.appendChild(el("div", "pdnv-legal",
            "(The board shows the move as written; the dashed arrows are the legal moves.)"));
        }
      }
    });
  };

  // ---------------------------------------------------------------- the explorer's panel

  // The collection's replies at this position (pdn/view/explorer_page.py panel_data), looked up
  // by variant, side to move and pieces. A click on the game's own next move (or on a
  // variation's) steps there; on another reply, it shows the position after it off the game.
  Viewer.prototype.panel = function () {
    if (!this.explorer) return;
    var self = this, node = this.node, box = this.panelBox, ex = this.explorer;
    box.textContent = "";
    var data = ex.nodes[this.game.variant + ":" + node.turn + node.pieces.join("")];
    var head = el("div", "pdnx-panel-head");
    box.appendChild(el("b", null, "Explorer"));
    box.appendChild(head);
    if (!data) {
      var why = node.off ? "Reached by " + node.reached + " games of the collection; replies are " +
        "counted only at the shown games' positions." : node.ply > ex.depth && ex.depth ?
        "Past the explorer's depth (the first " + ex.depth + " plies of each game)." :
        "Not counted: the explorer holds the shown games' mainline positions.";
      head.textContent = why;
      return;
    }
    var f = data.f, games = f[0] + f[1] + f[2] + f[3];
    head.textContent = games + (games === 1 ? " game" : " games") + ": " + f[0] + " won, " + f[1] +
      " drawn, " + f[2] + " lost, " + f[3] + " unknown" +
      (f[4] === null ? "" : ", score " + f[4].toFixed(1) + "% for the side to move") +
      (data.n ? " \u00b7 " + data.n : "");
    if (!data.r.length) return;
    var kids = node.kids || [];
    kids.forEach(function (k) { self.position(k); });
    var table = el("table", "pdnx-replies");
    var tr = el("tr");
    ["Move", "Games", "Win", "Draw", "Loss", "Unknown", "Score %", "Reached"]
      .forEach(function (h) { tr.appendChild(el("th", null, h)); });
    table.appendChild(tr);
    data.r.forEach(function (reply) {
      var rf = reply[1], n = rf[0] + rf[1] + rf[2] + rf[3];
      var kid = null;
      for (var i = 0; i < kids.length; i++) if (kids[i].rec.d === reply[3]) { kid = kids[i]; break; }
      var row = el("tr", "pdnx-reply" + (kid && kid === node.next ? " pdnx-next" : ""));
      row.setAttribute("data-move", reply[0]);
      if (kid) row.title = kid === node.next ? "the game's move" : "a variation of the game";
      [reply[0], n, rf[0], rf[1], rf[2], rf[3], rf[4] === null ? "" : rf[4].toFixed(1), reply[2]]
        .forEach(function (c) { row.appendChild(el("td", null, String(c))); });
      row.addEventListener("click", function () {
        if (kid) { self.go(kid); return; }
        self.go({ prev: node, next: null, ply: node.ply + 1, rec: { s: reply[0], d: reply[3] },
                  pieces: null, turn: null, mainline: false, problems: [], span: null,
                  off: true, reached: reply[2] });
      });
      table.appendChild(row);
    });
    box.appendChild(table);
  };

  // ---------------------------------------------------------------- the board

  Viewer.prototype.draw = function () {
    var node = this.node, game = this.game;
    var setup = node.rec && node.rec.setup !== undefined;
    var errors = (node.problems || []).map(function (k) { return game.problems[k]; })
      .filter(function (p) { return p.severity === "error"; });
    var paths = [];
    errors.forEach(function (p) { paths = paths.concat(p.paths || []); });
    var svg = PdnBoard.draw(this.board, {
      pieces: node.pieces, turn: node.turn, flip: this.flipped, numbers: this.numbers,
      changes: setup ? [] : node.changes || [], before: node.prev ? node.prev.pieces : null,
      illegal: errors.length > 0, paths: paths });
    this.boardBox.textContent = "";
    this.boardBox.appendChild(svg);
  };

  // ---------------------------------------------------------------- the evaluation graph

  // The engine's value after each analysed move, for White (up) against Black (down), under the
  // board; a click on it goes to that ply of the mainline.
  // Each ply: [ply, value for the graph, "?" or "??", "12. 15-18", value after the move for
  // White, best move, its value for White, verdicts] (viewer.py _evaluation).
  function plyText(p) {
    return p[3] + p[2] + ": " + p[4] + " for White; best " + p[5] + " " + p[6] +
      (p[7] ? "; " + p[7] : "");
  }

  Viewer.prototype.drawGraph = function () {
    var box = this.graphBox, data = this.game.evaluation, self = this, sv = PdnBoard.svg;
    box.textContent = "";
    this.analysisBox.textContent = "";
    if (!data || !data.plies.length) return;
    var node = this.node, now = null;
    if (node && node.ply && node.mainline !== false) {
      data.plies.forEach(function (p) { if (p[0] === node.ply) now = p; });
    }
    this.analysisBox.appendChild(el("b", null, "Analysis (" + data.level + "): "));
    this.analysisBox.appendChild(document.createTextNode(now ? plyText(now) :
      node && node.ply && node.mainline !== false ? "ply " + node.ply + ": a forced move, not judged" :
      "go to a move of the game for its value, the best move and the verdict"));
    var left = 34, w = 360, h = 80, top = 4, bottom = 14, range = data.range;
    var last = data.plies[data.plies.length - 1][0];
    function x(ply) { return left + (ply / Math.max(last, 1)) * (w - left); }
    function y(value) { return top + (h / 2) * (1 - value / range); }
    var svg = sv("svg", { "class": "pdnv-graph-svg", viewBox: "0 0 " + w + " " + (h + top + bottom),
      width: w, height: h + top + bottom });
    function label(text, lx, ly, anchor, cls) {
      var t = sv("text", { x: lx, y: ly, "text-anchor": anchor, "font-size": 10,
        "class": "pdnv-graph-label" + (cls ? " " + cls : ""), fill: "#555" });
      t.textContent = text;
      svg.appendChild(t);
    }
    var men = range / 100;
    label("White +" + men, left - 3, top + 9, "end");
    label("0", left - 3, y(0) + 3, "end");
    label("Black +" + men, left - 3, top + h, "end");
    label("start", left, h + top + bottom - 2, "start");
    label("ply " + last, w, h + top + bottom - 2, "end");
    var title = sv("title", {});
    title.textContent = "Evaluation for White, " + data.level + " (click: go to the ply)";
    svg.appendChild(title);
    var width = w - left;
    svg.appendChild(sv("rect", { x: left, y: top, width: width, height: h / 2, fill: "#f7f7f2" }));
    svg.appendChild(sv("rect", { x: left, y: top + h / 2, width: width, height: h / 2,
      fill: "#e4e1d8" }));
    svg.appendChild(sv("line", { x1: left, y1: y(0), x2: w, y2: y(0), stroke: "#999",
      "stroke-width": 1 }));
    var points = data.plies.map(function (p) { return x(p[0]) + "," + y(p[1]); });
    svg.appendChild(sv("polyline", { "class": "pdnv-graph-line", points: points.join(" "),
      fill: "none", stroke: "#1d5fd0", "stroke-width": 1.5 }));
    data.plies.forEach(function (p) {
      var dot = sv("circle", { "class": p[2] ? "pdnv-graph-mark" : "pdnv-graph-ply",
        cx: x(p[0]), cy: y(p[1]), r: p[2] ? 3.5 : 1.8,
        fill: p[2] === "??" ? "#d0281a" : p[2] ? "#e89a1c" : "#1d5fd0" });
      var tip = sv("title", {});
      tip.textContent = plyText(p);
      dot.appendChild(tip);
      svg.appendChild(dot);
      if (p[2]) label(p[2], x(p[0]), y(p[1]) - 5, "middle", "pdnv-graph-mark-label");
    });
    if (now || (node && node.ply && node.mainline !== false)) {
      svg.appendChild(sv("line", { "class": "pdnv-graph-now", x1: x(node.ply), y1: top,
        x2: x(node.ply), y2: top + h, stroke: "#f2a200", "stroke-width": 2 }));
    }
    svg.addEventListener("click", function (ev) {
      var r = svg.getBoundingClientRect(), at = (ev.clientX - r.left) / r.width * w;
      self.jump(Math.max(0, Math.round(((at - left) / (w - left)) * Math.max(last, 1))));
    });
    box.appendChild(svg);
  };

  return {
    mount: function (id) {
      var root = document.getElementById(id);
      if (root && !root.pdnViewer) root.pdnViewer = new Viewer(root);
      return root && root.pdnViewer;
    }
  };
})();
