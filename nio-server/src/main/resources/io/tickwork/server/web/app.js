// tickwork dictionary page: suggestions as you type, keyboard navigation, results from /d/{word}.
// No framework, no CDN: everything comes from the server's jar.
(function () {
  'use strict';
  var q = document.getElementById('q');
  var list = document.getElementById('suggestions');
  var result = document.getElementById('result');
  var offline = document.getElementById('offline');
  var form = document.getElementById('form');
  var items = [], selected = -1, seq = 0, timer = null;

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text != null) e.textContent = text;
    return e;
  }

  function reachable(ok, why) {
    if (ok) { offline.hidden = true; return; }
    offline.textContent = 'Cannot reach the dictionary server at ' + location.host +
      ' (' + why + '). Is it still running? Lookups will work again once it is back.';
    offline.hidden = false;
  }

  function get(path) {
    return fetch(path, { headers: { 'Accept': 'application/json' } }).then(function (r) {
      reachable(true);
      return r.json().then(function (body) { return { status: r.status, body: body }; });
    }, function (err) {
      reachable(false, err && err.message ? err.message : 'network error');
      throw err;
    });
  }

  function hide() { list.hidden = true; selected = -1; q.setAttribute('aria-expanded', 'false'); }

  function render(words, prefix) {
    list.textContent = '';
    items = words;
    selected = -1;
    if (!words.length) { hide(); return; }
    words.forEach(function (w, i) {
      var li = el('li');
      li.setAttribute('role', 'option');
      li.id = 'opt' + i;
      var b = el('b', null, w.slice(0, prefix.length));
      li.appendChild(b);
      li.appendChild(document.createTextNode(w.slice(prefix.length)));
      li.addEventListener('mousedown', function (ev) { ev.preventDefault(); choose(w); });
      list.appendChild(li);
    });
    list.hidden = false;
    q.setAttribute('aria-expanded', 'true');
  }

  function highlight(i) {
    var lis = list.children;
    if (!lis.length) return;
    selected = (i + lis.length) % lis.length;
    for (var k = 0; k < lis.length; k++) lis[k].setAttribute('aria-selected', k === selected ? 'true' : 'false');
    lis[selected].scrollIntoView({ block: 'nearest' });
    q.setAttribute('aria-activedescendant', lis[selected].id);
  }

  function suggest() {
    var v = q.value.replace(/^\s+/, '').toLowerCase();
    if (!v) { hide(); return; }
    var mine = ++seq;
    get('/s/' + encodeURIComponent(v) + '?limit=8').then(function (r) {
      if (mine !== seq || r.status !== 200) return;
      render(r.body.words, r.body.prefix);
    }, function () {});
  }

  function choose(w) {
    q.value = w;
    hide();
    lookup(w, true);
  }

  function link(w) {
    var a = el('a', null, w);
    a.href = '/?w=' + encodeURIComponent(w);
    a.addEventListener('click', function (ev) { ev.preventDefault(); q.value = w; lookup(w, true); });
    return a;
  }

  function lookup(w, push) {
    w = w.trim();
    if (!w) return;
    seq++;
    if (push) history.pushState({ w: w }, '', '/?w=' + encodeURIComponent(w));
    document.title = w + ' \u2014 tickwork dictionary';
    get('/d/' + encodeURIComponent(w)).then(function (r) { show(r.status, r.body); }, function () {});
  }

  var POS_ORDER = ['noun', 'verb', 'adjective', 'adverb'];

  function show(status, body) {
    result.textContent = '';
    if (status === 404) {
      result.appendChild(el('p', 'word', body.query));
      result.appendChild(el('p', 'note', 'Not in WordNet.'));
      if (body.suggestions && body.suggestions.length) {
        var p = el('p', 'close', 'Close words: ');
        body.suggestions.forEach(function (s) { p.appendChild(link(s)); });
        result.appendChild(p);
      }
      return;
    }
    if (status !== 200) { result.appendChild(el('p', 'note', body.error || ('HTTP ' + status))); return; }
    result.appendChild(el('h2', 'word', body.word));
    var forms = body.forms || [body.word];
    if (body.query !== body.word) result.appendChild(el('p', 'note', '\u201c' + body.query + '\u201d is a form of ' + forms.join(', ') + '.'));
    var groups = {};
    body.senses.forEach(function (s) { (groups[s.pos] = groups[s.pos] || []).push(s); });
    POS_ORDER.forEach(function (pos) {
      if (!groups[pos]) return;
      result.appendChild(el('h3', 'pos', pos + ' \u00b7 ' + groups[pos].length));
      var ol = el('ol', 'senses');
      groups[pos].forEach(function (s) {
        var li = el('li');
        li.appendChild(el('span', 'gloss', s.gloss));
        s.examples.forEach(function (x) { li.appendChild(el('span', 'ex', '\u201c' + x + '\u201d')); });
        var others = s.synonyms.filter(function (x) { return x.toLowerCase() !== body.word; });
        if (others.length) {
          var d = el('div', 'syn');
          others.forEach(function (x) { d.appendChild(link(x)); });
          li.appendChild(d);
        }
        ol.appendChild(li);
      });
      result.appendChild(ol);
    });
  }

  q.addEventListener('input', function () { clearTimeout(timer); timer = setTimeout(suggest, 60); });
  q.addEventListener('keydown', function (ev) {
    if (ev.key === 'ArrowDown') { ev.preventDefault(); if (list.hidden) suggest(); else highlight(selected + 1); }
    else if (ev.key === 'ArrowUp') { ev.preventDefault(); highlight(selected - 1); }
    else if (ev.key === 'Escape') { hide(); }
    else if (ev.key === 'Enter') {
      ev.preventDefault();
      if (!list.hidden && selected >= 0) choose(items[selected]); else { hide(); lookup(q.value, true); }
    }
  });
  q.addEventListener('blur', function () { setTimeout(hide, 100); });
  form.addEventListener('submit', function (ev) { ev.preventDefault(); });
  window.addEventListener('popstate', function () { start(); });

  function start() {
    var w = new URLSearchParams(location.search).get('w');
    if (w) { q.value = w; lookup(w, false); } else { result.textContent = ''; }
  }

  get('/stats').then(function (r) {
    document.getElementById('stats').textContent = r.body.words.toLocaleString() + ' words \u00b7 ' +
      r.body.loops + ' selector loops';
  }, function () {});
  start();
})();
