/* Runs a viewer page's own script under node with a small stand-in for the DOM, and prints
 * what the page shows as JSON: the move list, and at each ply asked for the analysis line
 * and the graph's labels and tooltips. Used by tests/test_viewer_analysis.py when node is
 * there (a real browser is tests/test_viewer_browser.py's).
 *
 * node viewer_dom.js PAGE.html PLY...
 */
"use strict";
var fs = require("fs");

function El(tag) {
  this.tagName = tag;
  this.children = [];
  this.attrs = {};
  this.className = "";
  this.own = "";
  this.style = {};
  this.parentNode = null;
  this.scrollTop = 0;
  this.offsetTop = 0;
  this.offsetHeight = 0;
  this.clientHeight = 0;
  var self = this;
  this.classList = {
    contains: function (c) { return self.className.split(/\s+/).indexOf(c) >= 0; },
    add: function (c) { if (!self.classList.contains(c)) self.className = (self.className + " " + c).trim(); },
    remove: function (c) {
      self.className = self.className.split(/\s+/).filter(function (x) { return x !== c; }).join(" ");
    },
  };
}
Object.defineProperty(El.prototype, "textContent", {
  get: function () { return this.own + this.children.map(function (c) { return c.textContent; }).join(""); },
  set: function (v) { this.own = String(v); this.children = []; },
});
Object.defineProperty(El.prototype, "lastChild", {
  get: function () { return this.children[this.children.length - 1] || null; },
});
Object.defineProperty(El.prototype, "childNodes", { get: function () { return this.children.slice(); } });
El.prototype.appendChild = function (c) {
  if (c.parentNode) c.parentNode.children.splice(c.parentNode.children.indexOf(c), 1);
  c.parentNode = this;
  this.children.push(c);
  return c;
};
El.prototype.remove = function () {
  if (this.parentNode) this.parentNode.children.splice(this.parentNode.children.indexOf(this), 1);
  this.parentNode = null;
};
El.prototype.setAttribute = function (k, v) { this.attrs[k] = String(v); if (k === "class") this.className = String(v); };
El.prototype.getAttribute = function (k) { return k === "class" ? this.className : (this.attrs[k] === undefined ? null : this.attrs[k]); };
El.prototype.addEventListener = function () {};
El.prototype.focus = function () {};
El.prototype.getBoundingClientRect = function () { return { left: 0, top: 0, width: 360, height: 100 }; };
El.prototype.all = function () {
  var out = [];
  this.children.forEach(function (c) { out.push(c); out = out.concat(c.all()); });
  return out;
};
El.prototype.querySelectorAll = function (selector) {
  var cls = selector.replace(/^\./, "");
  return this.all().filter(function (e) { return e.classList.contains(cls); });
};

var page = fs.readFileSync(process.argv[2], "utf8");
var blocks = {};
var found, pattern = /<script type="application\/(?:x-nd)?json" id="([^"]+)">([\s\S]*?)<\/script>/g;
while ((found = pattern.exec(page)) !== null) {
  var block = new El("script");
  block.own = found[2];
  blocks[found[1]] = block;
}
var root = new El("div");
root.id = /<div class="pdn-viewer" id="([^"]+)"/.exec(page)[1];
root.attrs["data-keys"] = "root";
var scripts = page.match(/<script>([\s\S]*?)<\/script>/g);
var code = scripts[scripts.length - 1].replace(/^<script>/, "").replace(/<\/script>$/, "");

global.document = {
  createElement: function (tag) { return new El(tag); },
  createElementNS: function (ns, tag) { return new El(tag); },
  createTextNode: function (text) { var t = new El("#text"); t.own = String(text); return t; },
  getElementById: function (id) { return id === root.id ? root : blocks[id] || null; },
  addEventListener: function () {},
};
// The page's script defines its globals with var: run it as the page would, at the top.
var viewer = new Function(code + "\nreturn document.getElementById(" + JSON.stringify(root.id) +
  ").pdnViewer;")();

function shown(e) { return [e.className, e.textContent, e.title || ""]; }
var out = { moves: viewer.moveList.children.map(shown), plies: {} };
process.argv.slice(3).forEach(function (ply) {
  viewer.jump(+ply);
  var svg = viewer.graphBox.children[0];
  out.plies[ply] = {
    analysis: viewer.analysisBox.textContent,
    labels: svg.all().filter(function (e) { return e.tagName === "text"; }).map(function (e) { return e.textContent; }),
    tips: svg.all().filter(function (e) { return e.tagName === "title"; }).map(function (e) { return e.textContent; }),
  };
});
process.stdout.write(JSON.stringify(out));
