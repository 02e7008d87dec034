// The site's one stylesheet and one script, written beside the pages (no framework, no web
// fonts, nothing fetched: the site works from file://).
//
// Fonts: the CJK section titles need a font with Han glyphs. The stack names the common ones of
// each system (Noto/Source Han on Linux, PingFang on macOS, YaHei on Windows) before the generic
// family, and Chinese text carries lang="zh" so the browser's fallback picks a Chinese face.
export const SITE_CSS = `
:root { --cjk: "Noto Sans CJK SC", "Noto Sans SC", "Source Han Sans SC", "Source Han Sans CN", "WenQuanYi Micro Hei", "PingFang SC", "Hiragino Sans GB", "Microsoft YaHei", "Droid Sans Fallback"; }
body { font: 15px/1.55 system-ui, -apple-system, "Segoe UI", "Noto Sans", "DejaVu Sans", var(--cjk), sans-serif; color: #1f2937; margin: 0 auto; max-width: 1100px; padding: 0 24px 64px; }
:lang(zh) { font-family: var(--cjk), sans-serif; }
header { border-bottom: 1px solid #e5e7eb; padding: 8px 0 12px; }
h1 { font-size: 24px; margin: 8px 0; } h1 code { font-size: 22px; }
h2 { border-bottom: 2px solid #e5e7eb; padding-bottom: 4px; margin-top: 32px; }
h3 { margin: 18px 0 4px; font-size: 16px; }
a { color: #1d4ed8; } .muted, .area, .where code { color: #6b7280; }
.pictures { display: grid; gap: 16px; } figure { margin: 12px 0; overflow-x: auto; } figcaption { font-size: 13px; color: #4b5563; margin-bottom: 4px; }
.find { position: sticky; top: 0; background: #fff; padding: 10px 0; border-bottom: 1px solid #e5e7eb; z-index: 1; }
#search { width: 360px; max-width: 100%; padding: 6px 10px; font-size: 15px; border: 1px solid #9ca3af; border-radius: 6px; }
.filters label { margin-left: 10px; font-size: 14px; white-space: nowrap; }
nav.areas { font-size: 13px; margin: 10px 0; }
ul.behaviours { list-style: none; padding: 0; } li.behaviour { padding: 6px 0; border-bottom: 1px solid #f3f4f6; }
li.behaviour .id { font-family: ui-monospace, monospace; font-weight: 600; margin-right: 6px; }
.chips { display: inline-block; margin-left: 6px; }
.chip { display: inline-block; font-size: 11px; padding: 1px 7px; border-radius: 8px; white-space: nowrap; }
.s-pass { background: #dcfce7; color: #166534; } .s-fail { background: #fee2e2; color: #991b1b; }
.s-not-applicable, .s-not-run { background: #e0e7ff; color: #3730a3; } .s-not-covered { background: #f3f4f6; color: #4b5563; }
.cites { font-size: 13px; color: #6b7280; margin: 0; }
.cite .doc { color: #4b5563; } .upstream { background: #fffbeb; border: 1px solid #fde68a; padding: 6px 10px; font-size: 14px; margin: 8px 0; }
.scenario { border-left: 3px solid #e5e7eb; padding: 2px 0 2px 14px; margin: 18px 0; }
ul.steps { list-style: none; padding-left: 0; } ul.steps b { color: #7c3aed; } q { color: #047857; }
table.data { border-collapse: collapse; margin: 4px 0 8px 12px; font-size: 13px; } table.data td, table.data th { border: 1px solid #e5e7eb; padding: 2px 8px; } table.data th { background: #f9fafb; }
tr.chosen td { background: #ecfdf5; font-weight: 600; }
pre { background: #f9fafb; border: 1px solid #e5e7eb; padding: 8px; font-size: 13px; overflow-x: auto; white-space: pre-wrap; }
.failure { color: #991b1b; } code { background: #f3f4f6; padding: 0 3px; border-radius: 3px; }
.hidden { display: none; }
`;

/** Search (every word must occur) and status filters on the index; nothing on other pages. */
export const SITE_JS = `(function () {
  var search = document.getElementById('search');
  if (!search) return;
  var items = Array.prototype.slice.call(document.querySelectorAll('li.behaviour'));
  var boxes = Array.prototype.slice.call(document.querySelectorAll('input.status-filter'));
  var shown = document.getElementById('shown');
  function apply() {
    var words = search.value.toLowerCase().split(/\\s+/).filter(Boolean);
    var wanted = boxes.filter(function (b) { return b.checked; }).map(function (b) { return b.value; });
    var n = 0;
    items.forEach(function (li) {
      var text = li.getAttribute('data-search') || '';
      var statuses = (li.getAttribute('data-status') || '').split(' ');
      var ok = words.every(function (w) { return text.indexOf(w) >= 0; }) && statuses.some(function (s) { return wanted.indexOf(s) >= 0; });
      li.classList.toggle('hidden', !ok);
      if (ok) n++;
    });
    document.querySelectorAll('section.area').forEach(function (s) {
      s.classList.toggle('hidden', s.querySelectorAll('li.behaviour:not(.hidden)').length === 0);
    });
    shown.textContent = n + ' of ' + items.length + ' behaviours shown';
  }
  search.addEventListener('input', apply);
  boxes.forEach(function (b) { b.addEventListener('change', apply); });
  var q = new URLSearchParams(location.search).get('q');
  if (q) search.value = q;
  apply();
})();
`;
