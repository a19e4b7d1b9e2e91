// docidx pages work without this script; it only adds keyboard and form conveniences.
"use strict";
document.addEventListener("keydown", function (e) {
  // "/" focuses the search box, as on most documentation sites.
  if (e.key !== "/" || e.ctrlKey || e.metaKey || e.altKey) return;
  var t = e.target;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
  var box = document.getElementById("query") || document.querySelector("[data-focus-key]");
  if (box) {
    e.preventDefault();
    box.focus();
    box.select();
  }
});
document.addEventListener("DOMContentLoaded", function () {
  // The version switcher submits itself when a version is picked.
  document.querySelectorAll("select[data-autosubmit]").forEach(function (s) {
    s.addEventListener("change", function () { s.form.submit(); });
  });
});
