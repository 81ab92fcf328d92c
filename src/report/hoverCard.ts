/**
 * The page's only script: a hover card with the details of the bar under the pointer. The details
 * live in each bar's `title` (so they show without script too); on first hover the title moves to
 * `data-tip` so the browser's own tooltip does not cover the card. Text is set with `textContent`.
 */
export const HOVER_CARD_SCRIPT = `(function () {
  var card = document.getElementById("hovercard");
  function place(x, y) {
    var w = card.offsetWidth, h = card.offsetHeight;
    card.style.left = Math.max(4, Math.min(x + 14, window.innerWidth - w - 4)) + "px";
    card.style.top = Math.max(4, (y + 16 + h > window.innerHeight) ? y - h - 10 : y + 16) + "px";
  }
  function show(el, x, y) {
    var tip = el.getAttribute("data-tip");
    if (tip === null) {
      tip = el.getAttribute("title") || "";
      el.setAttribute("data-tip", tip);
      el.removeAttribute("title");
    }
    card.textContent = "";
    var lines = tip.split("\\n");
    for (var i = 0; i < lines.length; i++) {
      var line = document.createElement(i === 0 ? "strong" : "div");
      line.textContent = lines[i];
      card.appendChild(line);
    }
    card.hidden = false;
    place(x, y);
  }
  document.addEventListener("mouseover", function (e) {
    var el = e.target && e.target.closest ? e.target.closest(".tk i[title], .tk i[data-tip]") : null;
    if (el) show(el, e.clientX, e.clientY); else card.hidden = true;
  });
  document.addEventListener("mousemove", function (e) { if (!card.hidden) place(e.clientX, e.clientY); });
  document.addEventListener("mouseleave", function () { card.hidden = true; });
})();`;
